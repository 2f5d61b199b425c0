"""Train the gate's second signal from the corpus, reproducibly, and measure what it adds.

    python -m registry.gate.training            # train on every round, write registry/gate/signal_weights.bin
    python -m registry.gate.training --evaluate # leave each blind round out (27 = B1, 28 = B2, 31 = B3, 33 = B4, 34 = B5, 35,
                                                # 36 = B6, 37-53 = B7-B23)
    python -m registry.gate.training --evaluate --rounds 40   # only B10 left out

Needs numpy (the `train` extra; the gate itself reads the weights in plain Python). Everything is
deterministic: full-batch optimisation from zero weights, no sampling, no seed to forget, so the
same corpus gives the same file (tests/test_gate_signal.py retrains and compares).

The model (registry/gate/signal.py) scores windows of one or two sentences; a text scores its
best window. Benign texts: every window is a negative. Attack texts: which window holds the
attack is not labelled, so the positives are chosen by multiple-instance iteration — first every
window of an attack counts, its weight shared among them; then, twice, only each attack's
best-scoring window under the model so far. The thresholds (one for short texts, one for long
ones) are chosen on the training data only: out-of-fold scores of the benign texts (folds by
round), set so that at most `false_positive_budget` of them would be refused.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from registry.gate import signal
from registry.gate.decode import views

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "gate_corpus"
CORPUS_FILES = (("attacks.jsonl", True), ("benign.jsonl", False),
                ("b3_attacks.jsonl", True), ("b3_benign.jsonl", False),
                ("b4_attacks.jsonl", True), ("b4_benign.jsonl", False),
                ("t1_attacks.jsonl", True), ("t1_benign.jsonl", False),
                ("b5_attacks.jsonl", True), ("b5_benign.jsonl", False),
                ("b6_attacks.jsonl", True), ("b6_benign.jsonl", False),
                ("b7_attacks.jsonl", True), ("b7_benign.jsonl", False),
                ("b8_attacks.jsonl", True), ("b8_benign.jsonl", False),
                ("b9_attacks.jsonl", True), ("b9_benign.jsonl", False),
                ("b10_attacks.jsonl", True), ("b10_benign.jsonl", False),
                ("b11_attacks.jsonl", True), ("b11_benign.jsonl", False),
                ("b12_attacks.jsonl", True), ("b12_benign.jsonl", False),
                ("b13_attacks.jsonl", True), ("b13_benign.jsonl", False),
                ("b14_attacks.jsonl", True), ("b14_benign.jsonl", False),
                ("b15_attacks.jsonl", True), ("b15_benign.jsonl", False),
                ("b16_attacks.jsonl", True), ("b16_benign.jsonl", False),
                ("b17_attacks.jsonl", True), ("b17_benign.jsonl", False),
                ("b18_attacks.jsonl", True), ("b18_benign.jsonl", False),
                ("b19_attacks.jsonl", True), ("b19_benign.jsonl", False),
                ("b20_attacks.jsonl", True), ("b20_benign.jsonl", False),
                ("b21_attacks.jsonl", True), ("b21_benign.jsonl", False),
                ("b22_attacks.jsonl", True), ("b22_benign.jsonl", False),
                ("b23_attacks.jsonl", True), ("b23_benign.jsonl", False),
                ("b24_attacks.jsonl", True), ("b24_benign.jsonl", False),
                ("b25_attacks.jsonl", True), ("b25_benign.jsonl", False),
                ("b26_attacks.jsonl", True), ("b26_benign.jsonl", False))
# Rounds written by someone who never saw the gate (35 is training data written blind by an outside writer).
BLIND_ROUNDS = (27, 28, 31, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56)
# The families' documented excuses (registry/gate/families/*.py EXCUSES) are benign texts too: what a
# family says it lets through, the model behind it must not refuse (tests/test_gate_families.py). They
# join the training as negatives under this pseudo-round, which is never a blind round.
EXCUSES_ROUND = 0
WEIGHTS_PATH = Path(__file__).resolve().parent / signal.WEIGHTS_FILE

FOLDS = 5


@dataclass(frozen=True)
class Settings:
    # Of the training benign texts of each length band, out of fold. 0.005 until session 14, when the rules alone
    # refused 1.6 % of a blind round's benign texts. Session 14 measured it on B23 with a model trained without B23
    # (rounds to B22): 0.005 refused 450 of its 512 attacks with 9 false positives, 0.01 462 with 10, 0.02 469 with
    # 10 — the model's own false positives 0, 1, 1 of 276, far under the out-of-fold budget. Doubled, not
    # quadrupled: one round's benign texts are few, and the out-of-fold figure is the one that covers every writer.
    # Session 17 shipped 0.015 for B27's first contact and withdrew it after: 10 attacks more and 2 false positives
    # more, both the model's, over the target (docs/adr/0026-the-models-refusal-budget-is-read-on-rounds-it-never-saw.md).
    false_positive_budget: float = 0.01
    l2: float = 1e-5
    learning_rate: float = 0.05
    steps: int = 150  # per multiple-instance stage
    stages: int = 3
    positive_share: float = 1.0  # total weight of the positives ÷ total weight of the negatives
    # Long benign postures composed, per fold, of that fold's held-out benign texts: they join the real long
    # benign texts when the long texts' threshold is chosen (see composed_out_of_fold).
    composed_per_fold: int = 2000
    # A rule's match is overruled when the model scores both its window and the words around it under
    # these (signal.Model.overrules; docs/adr/0018-the-model-may-overrule-a-rule.md). Chosen on the rules'
    # first-contact refusals of B10-B14, each scored by a model trained without its round: of 1,084 attacks
    # the rules refused first, 63 first matches would be overruled and of 211 false positives 102 withdrawn —
    # 45 and 99 once what is never overruled is left out (registry/gate/__init__.py NEVER_OVERRULED; docs/gate.md,
    # "B14, overruling and hostile round 7").
    veto_window: float = -4.0
    veto_local: float = -1.0
    # A bare match (registry/gate/__init__.py _is_bare: a rule noun alone, "instructions", "las reglas", or a
    # relayed instruction) is a word the model weighs as an attack wherever it stands, so the words around it
    # score high in benign sentences too: the window decides, under its own threshold, and the words around
    # it only have to stay under a looser one (which keeps a padded attack's words from being overruled).
    # Chosen on the chained first-contact matches of B10-B16, each read by a model trained without its round
    # (docs/gate.md, "Session 9: the window decides").
    veto_bare_window: float = -1.0
    # 3.0 until session 11; the model retrained with B19 read a padded held attack's words at 2.93 ("Las instrucciones
    # que trajiste de fábrica…", tests/test_gate_overrule.py). 2.5 changes no decision over the whole corpus (16k texts,
    # with either model) and keeps that attack refused however it is padded (docs/gate.md, "Session 11").
    veto_bare_local: float = 2.5
    # In a long posture (the model's long band, signal.LONG_TEXT_WINDOWS) a rule's match must read, to the model, at
    # least somewhat like an attack to stand: overruled when its window scores under `veto_long_window` and the
    # words around it under `veto_long_local`. More sentences give the rules more chances to pair words that
    # were never meant together, and the blind rounds' false positives are long postures (11 of B23's 12), while
    # an attack buried in one still reads as an attack where it stands. Chosen on B23 read by a model trained
    # without it: under the short texts' thresholds 462 attacks and 10 false positives, under (0, 1) 460 and 5, under
    # (1, 2) 458 and 4, under (2, 3) 456 and 4 (docs/gate.md, "Session 14").
    veto_long_window: float = 1.0
    veto_long_local: float = 2.0


SETTINGS = Settings()


@dataclass
class Corpus:
    """Every text cut into sentences (hashed features) and windows, as numpy arrays."""

    rounds: np.ndarray  # per text
    attack: np.ndarray  # per text, bool
    texts: list[str]
    nnz_index: np.ndarray  # feature bucket of each (sentence, feature) entry
    nnz_sentence: np.ndarray  # its sentence
    sentences: int
    window_first: np.ndarray  # per window: first sentence
    window_second: np.ndarray  # second sentence, or -1
    window_text: np.ndarray  # the text it belongs to (windows sorted by text)


def load_texts() -> list[dict]:
    rows = []
    for name, attack in CORPUS_FILES:
        with open(CORPUS / name, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    row = json.loads(line)
                    rows.append({"text": row["text"], "round": int(row["round"]), "attack": attack,
                                 "lang": row.get("lang", ""), "family": row.get("family", "")})
    return rows + documented_excuses()


def documented_excuses() -> list[dict]:
    """Every family's EXCUSES, as benign rows of the pseudo-round EXCUSES_ROUND."""
    from registry.gate.families import FAMILIES

    return [{"text": text, "round": EXCUSES_ROUND, "attack": False, "lang": "", "family": family.NAME}
            for family in FAMILIES for text in family.EXCUSES]


def segments_of(text: str) -> list[list[list[str]]]:
    """The words of each sentence of the text and of every decoded view, as the gate reads them."""
    return [[s.words for s in signal.sentences_of(part)] for part in [text, *(v.text for v in views(text))]]


def build(rows: list[dict]) -> Corpus:
    index_parts, sentence_parts = [], []
    first, second, owner = [], [], []
    sentence = 0
    for text_id, row in enumerate(rows):
        for segment in segments_of(row["text"]):
            base = sentence
            for words in segment:
                features = signal.sentence_features(words)
                index_parts.append(np.asarray(features, dtype=np.int64))
                sentence_parts.append(np.full(len(features), sentence, dtype=np.int64))
                sentence += 1
            for a, b in signal.windows(len(segment)):
                first.append(base + a)
                second.append(base + b if b != a else -1)
                owner.append(text_id)
    return Corpus(
        rounds=np.array([r["round"] for r in rows]), attack=np.array([r["attack"] for r in rows]),
        texts=[r["text"] for r in rows],
        nnz_index=np.concatenate(index_parts), nnz_sentence=np.concatenate(sentence_parts), sentences=sentence,
        window_first=np.array(first), window_second=np.array(second), window_text=np.array(owner),
    )


def window_scores(corpus: Corpus, weights: np.ndarray, bias: float) -> np.ndarray:
    per_sentence = np.bincount(corpus.nnz_sentence, weights=weights[corpus.nnz_index], minlength=corpus.sentences)
    paired = corpus.window_second >= 0
    scores = per_sentence[corpus.window_first] + bias
    scores[paired] += per_sentence[corpus.window_second[paired]]
    return scores


def text_scores(corpus: Corpus, scores: np.ndarray) -> np.ndarray:
    """Each text's best window (-inf for a text with no word)."""
    best = np.full(len(corpus.texts), -np.inf)
    np.maximum.at(best, corpus.window_text, scores)
    return best


def _best_window_per_text(corpus: Corpus, scores: np.ndarray, texts: np.ndarray) -> np.ndarray:
    """For each text in `texts` (a mask over texts), the index of its best window (the first on ties)."""
    order = np.lexsort((np.arange(len(scores)), -scores, corpus.window_text))  # by text, best first
    first_of_text = np.ones(len(order), dtype=bool)
    first_of_text[1:] = corpus.window_text[order][1:] != corpus.window_text[order][:-1]
    chosen = order[first_of_text]
    return chosen[texts[corpus.window_text[chosen]]]


def train(corpus: Corpus, in_training: np.ndarray, settings: Settings = SETTINGS) -> tuple[np.ndarray, float]:
    """Fit on the texts where `in_training` (a mask over texts) holds; returns quantised weights and bias."""
    buckets = 1 << signal.BITS
    window_in = in_training[corpus.window_text]
    attack_window = corpus.attack[corpus.window_text]
    negatives = window_in & ~attack_window
    windows_per_text = np.bincount(corpus.window_text, minlength=len(corpus.texts))
    weights, bias = np.zeros(buckets), 0.0
    for stage in range(settings.stages):
        labels = attack_window.astype(float)
        importance = negatives.astype(float)
        if stage == 0:  # every window of an attack, its weight shared
            positives = window_in & attack_window
            importance[positives] = 1.0 / windows_per_text[corpus.window_text[positives]]
        else:  # each attack's best window under the model so far
            chosen = _best_window_per_text(corpus, window_scores(corpus, weights, bias), in_training & corpus.attack)
            importance[chosen] = 1.0
        positive_total = importance[attack_window].sum()
        importance[attack_window] *= settings.positive_share * importance[~attack_window].sum() / positive_total
        importance /= importance.sum()
        weights, bias = _fit(corpus, labels, importance, weights, bias, settings)
    return quantise(weights), bias


def _fit(corpus: Corpus, labels: np.ndarray, importance: np.ndarray, weights: np.ndarray, bias: float,
         settings: Settings) -> tuple[np.ndarray, float]:
    """Full-batch Adam on the weighted logistic loss plus L2; deterministic."""
    used = importance > 0
    first, second = corpus.window_first[used], corpus.window_second[used]
    paired = second >= 0
    labels, importance = labels[used], importance[used]
    m_w, v_w, m_b, v_b = np.zeros_like(weights), np.zeros_like(weights), 0.0, 0.0
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    for step in range(1, settings.steps + 1):
        per_sentence = np.bincount(corpus.nnz_sentence, weights=weights[corpus.nnz_index], minlength=corpus.sentences)
        z = per_sentence[first] + bias
        z[paired] += per_sentence[second[paired]]
        residual = importance * (1.0 / (1.0 + np.exp(-z)) - labels)
        by_sentence = np.bincount(first, weights=residual, minlength=corpus.sentences)
        by_sentence += np.bincount(second[paired], weights=residual[paired], minlength=corpus.sentences)
        gradient = np.bincount(corpus.nnz_index, weights=by_sentence[corpus.nnz_sentence], minlength=len(weights))
        gradient += settings.l2 * weights
        gradient_b = residual.sum()
        m_w = beta1 * m_w + (1 - beta1) * gradient
        v_w = beta2 * v_w + (1 - beta2) * gradient * gradient
        m_b = beta1 * m_b + (1 - beta1) * gradient_b
        v_b = beta2 * v_b + (1 - beta2) * gradient_b * gradient_b
        correction = math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        weights = weights - settings.learning_rate * correction * m_w / (np.sqrt(v_w) + epsilon)
        bias = bias - settings.learning_rate * correction * m_b / (math.sqrt(v_b) + epsilon)
    return weights, float(bias)


def quantise(weights: np.ndarray) -> np.ndarray:
    """int8 steps of one scale (what the file stores), returned as the floats the reader computes."""
    scale = scale_of(weights)
    return np.round(weights / scale).clip(-127, 127) * scale


def scale_of(weights: np.ndarray) -> float:
    largest = float(np.abs(weights).max())
    return largest / 127 if largest > 0 else 1.0


def choose_thresholds(corpus: Corpus, in_training: np.ndarray, settings: Settings = SETTINGS) -> list[float]:
    """Per length band (signal.LONG_TEXT_WINDOWS), the score above which at most the budget of the
    training benign texts of that band are refused, out of fold (folds by round, so a round's style is
    never both fitted and scored). A long posture's best window is the maximum of many, so it gets
    its own, higher threshold rather than the short texts' one."""
    out_of_fold = np.full(len(corpus.texts), -np.inf)
    windows_per_text = np.bincount(corpus.window_text, minlength=len(corpus.texts))
    composed_scores, composed_windows = [], []
    for fold in range(FOLDS):
        held = in_training & (corpus.rounds % FOLDS == fold)
        weights, bias = train(corpus, in_training & ~held, settings)
        out_of_fold[held] = text_scores(corpus, window_scores(corpus, weights, bias))[held]
        scores, windows = composed_out_of_fold(out_of_fold, windows_per_text,
                                               held & ~corpus.attack & (corpus.rounds != EXCUSES_ROUND),
                                               settings.composed_per_fold, fold)
        composed_scores.append(scores)
        composed_windows.append(windows)
    band = length_band(corpus)
    composed = np.concatenate(composed_scores)
    # composed texts count for the long band only: they are there to steady its threshold
    composed_long = composed[np.concatenate(composed_windows) > signal.LONG_TEXT_WINDOWS[-1]]
    thresholds = []
    for index in range(len(signal.LONG_TEXT_WINDOWS) + 1):
        benign = out_of_fold[in_training & ~corpus.attack & (band == index)]
        if index == len(signal.LONG_TEXT_WINDOWS):
            benign = np.concatenate([benign, composed_long])
        benign = np.sort(benign)[::-1]
        allowed = int(settings.false_positive_budget * len(benign))
        thresholds.append(float(benign[allowed]))  # refused: score > threshold, so `allowed` texts at most
    return thresholds


def composed_out_of_fold(scores: np.ndarray, windows_per_text: np.ndarray, benign: np.ndarray, count: int,
                         fold: int) -> tuple[np.ndarray, np.ndarray]:
    """`count` postures composed of 3 to 7 of the held-out benign texts (`benign`, a mask), as the out-of-fold
    model scores them: a composed text's best window is its parts' best (the windows across the join of two
    parts are not scored), its windows their sum. Real long benign postures are few and, in a round written
    from templates, alike (round 35's share generic sections): the highest of them is a noisy threshold and
    can be a low one, while a long benign posture is, to the model, benign sentences side by side — and
    those are many. tests/test_gate_long_postures.py checks the same idea on the shipped model. The parts are
    drawn by a generator seeded with the fold: the same corpus gives the same draw."""
    candidates = np.flatnonzero(benign)
    if count == 0 or len(candidates) < 7:
        return np.empty(0), np.empty(0, dtype=np.int64)
    draw = np.random.default_rng(fold)
    scores_out, windows_out = np.empty(count), np.empty(count, dtype=np.int64)
    for index in range(count):
        parts = draw.choice(candidates, size=int(draw.integers(3, 8)), replace=False)
        scores_out[index] = scores[parts].max()
        windows_out[index] = windows_per_text[parts].sum()
    return scores_out, windows_out


def length_band(corpus: Corpus) -> np.ndarray:
    windows_per_text = np.bincount(corpus.window_text, minlength=len(corpus.texts))
    return np.array([signal.band_of(int(count)) for count in windows_per_text])


def refused_by_model(corpus: Corpus, weights: np.ndarray, bias: float, thresholds: list[float]) -> np.ndarray:
    scores = text_scores(corpus, window_scores(corpus, weights, bias))
    return scores > np.asarray(thresholds)[length_band(corpus)]


def fit_model(corpus: Corpus, in_training: np.ndarray, settings: Settings = SETTINGS
              ) -> tuple[np.ndarray, float, list[float]]:
    thresholds = choose_thresholds(corpus, in_training, settings)
    weights, bias = train(corpus, in_training, settings)
    return weights, bias, thresholds


def weights_file(weights: np.ndarray, bias: float, thresholds: list[float], rows: int) -> bytes:
    scale = scale_of(weights)
    steps = np.round(weights / scale).astype(np.int8) if weights.any() else np.zeros(len(weights), np.int8)
    about = {"texts": rows, "folds": FOLDS, **dataclasses.asdict(SETTINGS), "corpus_sha256": corpus_digest()}
    return signal.encode(steps.tolist(), scale, round(bias, 12), [round(t, 12) for t in thresholds], about,
                         {"window": SETTINGS.veto_window, "local": SETTINGS.veto_local,
                          "bare_window": SETTINGS.veto_bare_window, "bare_local": SETTINGS.veto_bare_local,
                          "long_window": SETTINGS.veto_long_window, "long_local": SETTINGS.veto_long_local})


def corpus_digest() -> str:
    digest = hashlib.sha256()
    for name, _ in CORPUS_FILES:
        digest.update((CORPUS / name).read_bytes())
    for row in documented_excuses():
        digest.update(row["text"].encode() + b"\n")
    return digest.hexdigest()


def train_shipped(thresholds: list[float] | None = None) -> bytes:
    """The weights file from every round. With `thresholds` given (the shipped ones), the five
    out-of-fold fits that choose them are skipped: a sixth of the work, for the quick check."""
    rows = load_texts()
    corpus = build(rows)
    everything = np.ones(len(rows), dtype=bool)
    if thresholds is None:
        thresholds = choose_thresholds(corpus, everything)
    weights, bias = train(corpus, everything)
    return weights_file(weights, bias, thresholds, len(rows))


def evaluate(rounds: tuple[int, ...] = BLIND_ROUNDS) -> list[dict]:
    """Leave each blind round out: model alone, rules alone (this checkout's gate), rules + model."""
    from registry.gate import refused_by_rules

    rows = load_texts()
    corpus = build(rows)
    results = []
    for held_round in rounds:
        held = corpus.rounds == held_round
        weights, bias, thresholds = fit_model(corpus, ~held)
        model_refuses = refused_by_model(corpus, weights, bias, thresholds)
        rules_refuse = np.array([refused_by_rules(corpus.texts[i]) if held[i] else False for i in range(len(rows))])
        figures = {"round": held_round, "thresholds": [round(t, 3) for t in thresholds]}
        for name, refused in (("model", model_refuses), ("rules", rules_refuse),
                              ("rules+model", rules_refuse | model_refuses)):
            attacks, benign = held & corpus.attack, held & ~corpus.attack
            figures[name] = {"recall": round(float(refused[attacks].mean()), 3),
                             "fpr": round(float(refused[benign].mean()), 3),
                             "refused": int(refused[attacks].sum()), "attacks": int(attacks.sum()),
                             "false_positives": int(refused[benign].sum()), "benign": int(benign.sum())}
        figures["false_positive_texts"] = [corpus.texts[i][:120] for i in np.flatnonzero(
            held & ~corpus.attack & model_refuses & ~rules_refuse)]
        print(json.dumps(figures, ensure_ascii=False), flush=True)
        results.append(figures)
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m registry.gate.training", description=__doc__.splitlines()[0])
    parser.add_argument("--evaluate", action="store_true", help="leave each blind round out and print the figures")
    parser.add_argument("--rounds", type=int, nargs="+", default=list(BLIND_ROUNDS),
                        help="with --evaluate: the blind rounds to leave out, one at a time")
    parser.add_argument("--output", type=Path, default=WEIGHTS_PATH)
    args = parser.parse_args(argv)
    if args.evaluate:
        evaluate(tuple(args.rounds))
        return
    data = train_shipped()
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]})")


if __name__ == "__main__":
    main()
