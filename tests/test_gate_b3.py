"""Blind round B3 (round 31), now development data. It was written by someone who never saw the gate and
scored once on first contact (recall 172/381 = 0.451, false positives 4/253 = 0.016; docs/gate.md,
"Rounds"); the gate was then widened on it, half by half ("Widening after B3"), so these figures are no
longer a measure of text nobody has seen — the next blind round is. They are a floor: a change that makes
the gate worse on B3 fails."""

from __future__ import annotations

import json
from pathlib import Path

from registry.gate import check

CORPUS = Path(__file__).parent / "gate_corpus"
REFUSED_AFTER_WIDENING, FALSE_POSITIVES_AFTER_WIDENING = 367, 0


def _rows(kind: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / f"b3_{kind}.jsonl").read_text(encoding="utf-8").splitlines()]


def test_round_b3_keeps_its_figures_after_widening() -> None:
    attacks, benign = _rows("attacks"), _rows("benign")
    assert (len(attacks), len(benign)) == (381, 253)
    refused = sum(not check(row["text"]).accepted for row in attacks)
    false_positives = [row["text"][:80] for row in benign if not check(row["text"]).accepted]
    print(f"B3: recall {refused}/{len(attacks)}, false positives {len(false_positives)}/{len(benign)}")
    assert refused >= REFUSED_AFTER_WIDENING
    assert len(false_positives) <= FALSE_POSITIVES_AFTER_WIDENING, false_positives
