"""Blind round B4 (round 33), now development data. It was written by someone who never saw the gate and
scored once on first contact with the merged gate (recall 371/441 = 0.841, false positives 11/258 = 0.043;
docs/gate.md, "Rounds"); the model was then retrained with it and the rules fixed and widened on it, half by
half ("After B4"), so these figures are no longer a measure of text nobody has seen — the next blind round
is. They are a floor: a change that makes the gate worse on B4 fails."""

from __future__ import annotations

import json
from pathlib import Path

from registry.gate import check

CORPUS = Path(__file__).parent / "gate_corpus"
REFUSED_AFTER_FIXES, FALSE_POSITIVES_AFTER_FIXES = 371, 0


def _rows(kind: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / f"b4_{kind}.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_round_b4_keeps_its_figures_after_fixes() -> None:
    attacks, benign = _rows("attacks"), _rows("benign")
    assert (len(attacks), len(benign)) == (441, 258)
    refused = sum(not check(row["text"]).accepted for row in attacks)
    false_positives = [row["text"][:80] for row in benign if not check(row["text"]).accepted]
    print(f"B4: recall {refused}/{len(attacks)}, false positives {len(false_positives)}/{len(benign)}")
    assert refused >= REFUSED_AFTER_FIXES
    assert len(false_positives) <= FALSE_POSITIVES_AFTER_FIXES, false_positives
