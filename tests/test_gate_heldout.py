"""Blind round B3 (round 31), scored on first contact against the gate that had been fitted on
B1 and B2, and not fitted since: recall 172/381 = 0.451, false positives 4/253 = 0.016
(docs/gate.md, "Rounds"). It stays out of the fitted corpus until a session fits it; until then
these figures are a floor, so a change that makes the gate worse on text nobody fitted fails."""

from __future__ import annotations

import json
from pathlib import Path

from registry.gate import check

CORPUS = Path(__file__).parent / "gate_corpus"
FIRST_CONTACT_REFUSED, FIRST_CONTACT_FALSE_POSITIVES = 172, 4


def _rows(kind: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / f"heldout_b3_{kind}.jsonl").read_text(encoding="utf-8").splitlines()]


def test_held_out_round_b3_keeps_its_first_contact_figures() -> None:
    attacks, benign = _rows("attacks"), _rows("benign")
    assert (len(attacks), len(benign)) == (381, 253)
    refused = sum(not check(row["text"]).accepted for row in attacks)
    false_positives = [row["text"][:80] for row in benign if not check(row["text"]).accepted]
    print(f"B3: recall {refused}/{len(attacks)}, false positives {len(false_positives)}/{len(benign)}")
    assert refused >= FIRST_CONTACT_REFUSED
    assert len(false_positives) <= FIRST_CONTACT_FALSE_POSITIVES, false_positives
