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
# The model retrained with B7-B10 (2026-12-01, docs/gate.md "After B10") refuses a few of this round's attacks fewer;
# its long-text threshold, chosen over more benign rounds, is higher. Across every round: -7 attacks, -8 false positives.
REFUSED_AFTER_WIDENING, FALSE_POSITIVES_AFTER_WIDENING = 375, 0


def round_figures(prefix: str) -> tuple[int, int, int, list[str]]:
    """(attacks, benign, attacks refused, the benign texts refused) of the round stored as `prefix`_*.jsonl."""
    attacks, benign = (
        [json.loads(line) for line in (CORPUS / f"{prefix}_{kind}.jsonl").read_text(encoding="utf-8").splitlines()
         if line.strip()] for kind in ("attacks", "benign"))
    refused = sum(not check(row["text"]).accepted for row in attacks)
    false_positives = [row["text"][:80] for row in benign if not check(row["text"]).accepted]
    print(f"{prefix}: recall {refused}/{len(attacks)}, false positives {len(false_positives)}/{len(benign)}")
    return len(attacks), len(benign), refused, false_positives


def test_round_b3_keeps_its_figures_after_widening() -> None:
    attacks, benign, refused, false_positives = round_figures("b3")
    assert (attacks, benign) == (381, 253)
    assert refused >= REFUSED_AFTER_WIDENING
    assert len(false_positives) <= FALSE_POSITIVES_AFTER_WIDENING, false_positives
