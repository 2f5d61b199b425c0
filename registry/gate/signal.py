"""The gate's second signal: a linear model over the words and letter groups of each sentence.

The rules (engine, subjects, decode) refuse what their lexicon names; this model is trained by
`python -m registry.gate.training` from the gate's corpus and refuses, *behind* the rules, a
window of the text whose score passes a threshold chosen on the training data (docs/gate.md,
"Second signal"; docs/adr/0017-statistical-second-signal.md).

What it reads is what the rules read: the folded word skeleton (`word_skeleton`: case, accents,
look-alikes, leetspeak, spacing tricks undone), one line a sentence, for the text and for every
decoded view. A *window* is one sentence or two consecutive ones, and a text scores the maximum
over its windows, so one sentence buried in a long posture is not diluted. A sentence's features
are its words, the letter groups of 3 to 5 characters of each word (with its edges: "<ign",
"ignor"), and its word pairs, hashed (CRC-32) into 2**BITS buckets. The model is linear, so a
sentence's score is the sum of its words' and pairs' weights, and a window's is the sum of its
sentences' plus the bias: words and sentences are scored once and remembered.

The weights ship as `signal_weights.bin` (int8, zlib-compressed) and load once, on first use; there
is no download at run time and no dependency: inference is plain Python.
"""

from __future__ import annotations

import functools
import json
import struct
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from registry.gate_normalize import word_skeleton

# How a refusal by this signal is reported: no rule named it, so the family is the signal itself.
FAMILY = "statistical"
TITLE = ("reads like an instruction about the assistant's own rules, access to data or secrecy, not about how to "
         "read and present data (found by the gate's statistical check, which compares it with known attacks, "
         "rather than by a named rule)")

BITS = 18
_MASK = (1 << BITS) - 1
_NGRAMS = (3, 4, 5)
WEIGHTS_FILE = "signal_weights.bin"
_MAGIC = b"GATESIG1"


def _bucket(feature: str) -> int:
    return zlib.crc32(feature.encode()) & _MASK


def word_features(word: str) -> list[int]:
    """The buckets of one word: the word itself and its distinct letter groups, edges marked. Each
    group counts once a word, so a run of one letter ("aaaa…", 8,000 of them) weighs what a short word
    does instead of eight thousand times one group's weight."""
    marked = f"<{word}>"
    features = [_bucket("w " + word)]
    if marked.isascii():  # the usual folded word: slicing its bytes hashes the same groups, encoded once
        data = marked.encode()
        crc32 = zlib.crc32
        for n in _NGRAMS:
            features.extend(dict.fromkeys(crc32(data[i:i + n]) & _MASK for i in range(len(data) - n + 1)))
        return features
    for n in _NGRAMS:
        features.extend(dict.fromkeys(_bucket(marked[i:i + n]) for i in range(len(marked) - n + 1)))
    return features


def pair_feature(first: str, second: str) -> int:
    return _bucket(f"p {first} {second}")


def sentence_features(words: list[str]) -> list[int]:
    """Every bucket of a sentence, repeated as often as it occurs (the training script's input)."""
    features = [f for word in words for f in word_features(word)]
    features.extend(pair_feature(a, b) for a, b in zip(words, words[1:]))
    return features


@dataclass(frozen=True)
class Sentence:
    words: list[str]
    start: int  # where the sentence lies in the judged text (source offsets)
    end: int
    skeleton_start: int = 0  # where its line starts in the skeleton (to find each word's source, on demand)
    line: str = ""


def sentences_of(text: str) -> list[Sentence]:
    """The non-empty sentences of the folded skeleton, each with its source span."""
    skeleton = word_skeleton(text)
    found = []
    position = 0
    for line in skeleton.text.split("\n"):
        words = [w for w in line.split(" ") if w]
        if words:
            start, end = skeleton.source_span(position + line.index(words[0]), position + len(line.rstrip(" ")))
            found.append(Sentence(words, start, end, position, line))
        position += len(line) + 1
    return found


def word_spans(text: str, sentence: Sentence) -> list[tuple[int, int]]:
    """The source span of each of the sentence's words, in order."""
    skeleton = word_skeleton(text)
    spans = []
    position = sentence.skeleton_start
    for token in sentence.line.split(" "):
        if token:
            spans.append(skeleton.source_span(position, position + len(token)))
        position += len(token) + 1
    return spans


# A text with more windows than this is judged against the long texts' threshold: its best window is
# the maximum of many, so a short text's threshold would refuse long benign postures too often.
LONG_TEXT_WINDOWS = (20,)


def band_of(window_count: int) -> int:
    """The length band of a text by its number of windows (text and decoded views together)."""
    return sum(window_count > limit for limit in LONG_TEXT_WINDOWS)


def window_count(sentences: int) -> int:
    """How many windows `sentences` sentences make (`windows`): each one, and each adjacent pair."""
    return max(0, 2 * sentences - 1)


def windows(count: int) -> Iterable[tuple[int, int]]:
    """(first, last) sentence indices of every window of `count` sentences: each one, each adjacent pair."""
    for index in range(count):
        yield index, index
        if index + 1 < count:
            yield index, index + 1


# How many words either side of a rule's match its local reading takes (Model.reading_of).
VETO_REACH = 6


@dataclass(frozen=True)
class Reading:
    """The model's scores for a rule's match: the best window (one or two sentences) holding the
    sentence where it starts, and the words around it; the sentence's source span."""

    window: float
    local: float
    start: int
    end: int
    windows: int = 0  # how many windows the read text has (its length band)


@dataclass(frozen=True)
class Verdict:
    score: float
    start: int  # the top-scoring window's span in the judged text
    end: int
    windows: int  # how many windows the judged text has


class Model:
    """Weights (one per bucket), a bias and a refusal threshold per length band; scores cached per
    word and sentence."""

    def __init__(self, weights: list[float], bias: float, thresholds: list[float], about: dict,
                 veto: dict | None = None) -> None:
        self.weights = weights
        self.bias = bias
        self.thresholds = thresholds
        self.veto = veto  # {"window": w, "local": l}: a rule's match scoring under both is overruled
        self.about = about  # how it was trained (the training script's record)
        self.word_score = functools.lru_cache(maxsize=65536)(self._word_score)
        self.sentence_score = functools.lru_cache(maxsize=16384)(self._sentence_score)

    def _word_score(self, word: str) -> float:
        weights = self.weights
        return sum(weights[f] for f in word_features(word))

    def _sentence_score(self, words: tuple[str, ...]) -> float:
        weights = self.weights
        word_score = self.word_score
        return (sum(word_score(w) for w in words)
                + sum(weights[pair_feature(a, b)] for a, b in zip(words, words[1:])))

    def best_window(self, text: str) -> Verdict | None:
        """The highest-scoring window of `text`, or None when it holds no word."""
        sentences = sentences_of(text)
        scores = [self.sentence_score(tuple(s.words)) for s in sentences]
        best: Verdict | None = None
        count = window_count(len(sentences))
        for first, last in windows(len(sentences)):
            score = self.bias + sum(scores[first:last + 1])
            if best is None or score > best.score:
                best = Verdict(score, sentences[first].start, sentences[last].end, count)
        return best

    def threshold(self, window_count: int) -> float:
        return self.thresholds[band_of(window_count)]

    def reading_of(self, text: str, start: int, end: int) -> Reading | None:
        """How the model reads a rule's match at [start, end) of `text`: the best window holding the
        sentence where the match starts, and the match's words read with up to `VETO_REACH` words of that
        sentence before them, after them, or alone (the highest of the three). None when the match starts
        in no sentence (punctuation alone, a tag's bracket)."""
        sentences = sentences_of(text)
        index = next((i for i, s in enumerate(sentences) if s.start <= start < max(s.end, s.start + 1)), None)
        if index is None:
            return None
        # the windows holding it: the sentence alone, or with the one before or after it
        neighbours = [self.sentence_score(tuple(sentences[k].words)) for k in (index - 1, index + 1)
                      if 0 <= k < len(sentences)]
        window = self.bias + self.sentence_score(tuple(sentences[index].words)) + max([0.0, *neighbours])
        sentence = sentences[index]
        spans = word_spans(text, sentence)
        inside = [i for i, (s, e) in enumerate(spans) if s < max(end, start + 1) and e > start] or [
            next((i for i, (s, _) in enumerate(spans) if s >= start), len(spans) - 1)]
        # The words of the match with those before it, with those after it, and alone: the most suspicious of
        # the three is its local reading, so ordinary words padded on one side (or both) do not dilute it.
        first, last = inside[0], inside[-1]
        words = sentence.words
        local = self.bias + max(self.sentence_score(tuple(words[max(0, first - VETO_REACH):last + 1])),
                                self.sentence_score(tuple(words[first:last + 1 + VETO_REACH])),
                                self.sentence_score(tuple(words[first:last + 1])))
        return Reading(window, local, sentences[index].start, sentences[index].end,
                       window_count(len(sentences)))

    def overrules(self, reading: Reading | None, bare: bool = False) -> bool:
        """Whether the model reads a rule's match as clearly benign: both its window and the words around
        it score under the veto thresholds. Both, because a sentence padded with ordinary words scores
        low as a whole while the words around the match still read as what they are. A `bare` match (a rule
        noun alone, which the model weighs as an attack wherever it stands, so the words around it score high
        in benign sentences too) has thresholds of its own: the window's lower, the words' higher. In a long text (the
        long band) any other match stands only when the model reads it as at least somewhat like an attack: its
        thresholds there are well above the short texts' (docs/adr/0024-a-long-posture-needs-the-models-agreement.md);
        a bare match there stands when its window does, whatever the words around the rule noun score."""
        if reading is None or self.veto is None:
            return False
        long = band_of(reading.windows) and "long_window" in self.veto
        if bare and long:  # the rule noun inflates the words around it wherever it stands: the window decides
            return reading.window < self.veto["long_window"]
        if bare:
            return reading.window < self.veto["bare_window"] and reading.local < self.veto["bare_local"]
        if long:
            return reading.window < self.veto["long_window"] and reading.local < self.veto["long_local"]
        return reading.window < self.veto["window"] and reading.local < self.veto["local"]


def encode(weights: Iterable[int], scale: float, bias: float, thresholds: list[float], about: dict,
           veto: dict | None = None) -> bytes:
    """The weights file: magic, a JSON header (scale, bias, thresholds, veto thresholds, training record),
    int8 weights."""
    header = json.dumps({"bits": BITS, "scale": scale, "bias": bias, "thresholds": thresholds,
                         "long_text_windows": list(LONG_TEXT_WINDOWS), "veto": veto,
                         "veto_reach": VETO_REACH, "about": about},
                        sort_keys=True).encode()
    body = array("b", weights).tobytes()
    return _MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(body, 9)


def decode(data: bytes) -> Model:
    if not data.startswith(_MAGIC):
        raise ValueError("not a gate signal weights file")
    (length,) = struct.unpack_from("<I", data, len(_MAGIC))
    start = len(_MAGIC) + 4
    header = json.loads(data[start:start + length])
    if (header["bits"] != BITS or header["long_text_windows"] != list(LONG_TEXT_WINDOWS)
            or header.get("veto_reach") != VETO_REACH):
        raise ValueError("the weights file was written for another hashing, length bands or veto reach: retrain")
    quantised = array("b", zlib.decompress(data[start + length:]))
    scale = header["scale"]
    return Model([q * scale for q in quantised], header["bias"], header["thresholds"], header["about"],
                 header["veto"])


@functools.cache
def model() -> Model:
    """The shipped model, read once. A missing file is an error, not a gate without its second
    signal: the file is part of the package (pyproject's package-data)."""
    return decode(resources.files("registry.gate").joinpath(WEIGHTS_FILE).read_bytes())
