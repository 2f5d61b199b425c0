"""Blind round B5 (round 34), now development data. It was written by someone who never saw the gate and
scored once on first contact with the merged gate (recall 341/465 = 0.733, false positives 19/291 = 0.065;
docs/gate.md, "Rounds"); the family `grounding` was then written on its even half, its false positives were
fixed by idea and the model was retrained with it ("After B5"), so these figures are no longer a measure of
text nobody has seen — the next blind round is. They are a floor: a change that makes the gate worse on B5
fails."""

from __future__ import annotations

from tests.test_gate_b3 import round_figures

# The model retrained with B7-B10 (2026-12-01, docs/gate.md "After B10") refuses a few of this round's attacks fewer;
# its long-text threshold, chosen over more benign rounds, is higher. Across every round: -7 attacks, -8 false positives.
# Retrained with B14 and each word's letter groups counted once (session 8; docs/gate.md, "B14, overruling and
# hostile round 7"): -4 attacks, +1 — each one near the model's threshold, none refused by the rules.
REFUSED_AFTER_FIXES, FALSE_POSITIVES_AFTER_FIXES = 398, 0  # session 9: the model retrained with B15, B16 and B17, -2


def test_round_b5_keeps_its_figures_after_fixes() -> None:
    attacks, benign, refused, false_positives = round_figures("b5")
    assert (attacks, benign) == (465, 291)
    assert refused >= REFUSED_AFTER_FIXES
    assert len(false_positives) <= FALSE_POSITIVES_AFTER_FIXES, false_positives
