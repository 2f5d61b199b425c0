"""Length must not make a benign posture look like an attack. Blind round B4's first contact refused 9 long
benign postures dense with trigger words (docs/gate.md, "After B4, before B5"): a long text has many sentences,
so every rule that reads two neighbouring sentences, and the statistical signal's best window, get many more
chances. Here benign corpus texts, each accepted alone, are joined into long postures in every way a writer
would (one paragraph, lines, paragraphs): whatever the gate refuses in such a text, it refused only because
the sentences stood next to each other."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

from registry.gate import check

CORPUS = Path(__file__).parent / "gate_corpus"
BENIGN_FILES = ("benign.jsonl", "b3_benign.jsonl", "b4_benign.jsonl", "t1_benign.jsonl")
PER_LANGUAGE = 400
SEPARATORS = ("\n\n", " ", "\n")


def composed_postures(seed: int = 7) -> list[str]:
    by_language: dict[str, list[str]] = defaultdict(list)
    for name in BENIGN_FILES:
        for line in (CORPUS / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                text = row["text"].rstrip()
                if not check(text).accepted:  # a known false positive alone (tests/test_gate_t1.py) proves nothing here
                    continue
                # a part without a closing mark would run into the next one as a single sentence
                by_language[row["lang"]].append(text if text[-1:] in ".!?:;)" else text + ".")
    chooser = random.Random(seed)
    postures = []
    for language in sorted(by_language):
        for index in range(PER_LANGUAGE):
            parts = chooser.sample(by_language[language], chooser.randint(3, 7))
            posture = SEPARATORS[index % len(SEPARATORS)].join(parts)
            if len(posture) <= 8000:
                postures.append(posture)
    return postures


# The statistical signal's long threshold is chosen so that at most 1 % of long benign postures, composed ones
# included, would be refused out of fold (registry/gate/training.py, false_positive_budget; 0.5 % until session 14);
# the shipped model may refuse about as many.
SIGNAL_SHARE = 0.01


def test_benign_texts_joined_into_long_postures_are_accepted() -> None:
    postures = composed_postures()
    assert len(postures) > 1000
    decisions = [check(posture) for posture in postures]
    by_rules = [(d.family, d.excerpt) for d in decisions if not d.accepted and d.family != "statistical"]
    by_signal = [d.excerpt for d in decisions if not d.accepted and d.family == "statistical"]
    assert by_rules == []
    assert len(by_signal) <= SIGNAL_SHARE * len(postures), by_signal
