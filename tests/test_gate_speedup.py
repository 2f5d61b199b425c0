"""The gate's fast paths agree with their reference paths, on a seeded set of tricky texts.

The instruction gate has fast paths (registry/gate_normalize.py folds a text with `str.translate`
and builds the word skeleton a word at a time; registry/gate.py searches a rule only in the
sentences that can hold a match, and a pairing only in the windows that can). Each must give
exactly what the slower reference gives — same folded text and origins, same matches in the same
order, same refusal — so these tests compare them on corpus texts and on generated texts built to
hit the edge cases: whitespace runs of every kind, characters that fold to nothing, to several
characters or to a space, look-alikes, leetspeak, spaced letters, sentence ends and bullets.
"""

import bisect
import json
import random
import sys
import unicodedata
from pathlib import Path

import pytest

from types import SimpleNamespace

from registry.gate import characters, engine, legacy_rules

# The gate's internals, wherever they live in the package.
gate = SimpleNamespace(**{**vars(legacy_rules), **vars(characters), **vars(engine)})
from registry.gate_normalize import (
    Folded,
    _fold_characters_fast,
    _fold_characters_reference,
    _word_skeleton_reference,
    compact_skeleton,
    fold_characters,
    word_skeleton,
)

CORPUS = Path(__file__).parent / "gate_corpus"
SEED = 20261129
GENERATED = 700

WHITESPACE = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
# Characters whose fold is empty (lone marks), several characters, or a space: the fold's fast path
# must hand these texts to the reference path.
AWKWARD = ["\u0301", "\u0345", "\u20dd", "ß", "ﬁ", "ﬃ", "ŉ", "½", "…", "㎏", "Ⅳ", "¨", "´", "\u02d8",
           "\u0384", "\u1fbd", "\u203e", "\u00b8", "ǅ", "\u2474", "\ufdfa", "™"]
# ... and some that look as if they would, but fold to one letter ("İ" → "i": the dot is a mark).
ONE_LETTER = ["İ", "ǰ", "é", "Ç", "Ａ", "ｇ", "ª", "µ", "K", "Ω"]
LOOKALIKES = "аеоірсхуѕкмнтвјԁԛԝһӏɡαβεηικμνορτυχωςıɩ" + "ＩＧＮＯＲＥｉｇｎｏｒｅ"
LEET = "0134579@$"
PUNCTUATION = list(".,;:!?…)]}\"'»”’-*•·–—>(_/#") + [").", ".»", "!”"]
INVISIBLE = ["\u200b", "\u200d", "\ufeff", "\u00ad", "\ufe0f", "\x0b", "\x85", "\u2028"]
LINE_STARTS = ["- ", "* ", "• ", "> ", "1. ", "2) ", "— "]
WORDS = ["ignore", "ignora", "regras", "instrucoes", "previous", "instructions", "rules", "anteriores", "system",
         "prompt", "sistema", "nunca", "never", "q", "vc", "oq", "td", "pq", "a", "e", "o", "x", "2024", "1"]


def load_corpus() -> list[str]:
    texts = []
    for name in ("attacks", "benign"):
        for line in (CORPUS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def mutate(rng: random.Random, text: str, corpus: list[str]) -> str:
    def at_random(piece: str) -> str:
        position = rng.randrange(len(text) + 1)
        return text[:position] + piece + text[position:]

    kind = rng.randrange(12)
    if kind == 0:  # whitespace runs of every kind, with and without newlines
        for _ in range(rng.randint(1, 6)):
            text = at_random("".join(rng.choice(WHITESPACE + ["\n", " "]) for _ in range(rng.randint(1, 4))))
    elif kind == 1:
        for _ in range(rng.randint(1, 4)):
            text = at_random(rng.choice(AWKWARD + ONE_LETTER * 2))
    elif kind == 2:
        text = "".join(rng.choice(LOOKALIKES) if c.isalpha() and rng.random() < 0.2 else c for c in text)
    elif kind == 3:
        text = "".join(rng.choice(LEET) if c in "oieastOIEAST" and rng.random() < 0.3 else c for c in text)
    elif kind == 4:  # spaced or punctuated letters: "i g n o r e", "i.g.n.o.r.e"
        word = rng.choice(WORDS)
        text = at_random(" " + rng.choice([" ", ".", "-", "\n", " . "]).join(word) + " ")
    elif kind == 5:
        text = " ".join(w + rng.choice(PUNCTUATION) if rng.random() < 0.15 else w for w in text.split(" "))
    elif kind == 6:
        text = "\n".join(rng.choice(LINE_STARTS) + line if rng.random() < 0.4 else line for line in text.split("\n"))
    elif kind == 7:
        text = " ".join(rng.choice(WORDS) if rng.random() < 0.1 else w for w in text.split(" "))
    elif kind == 8:
        text = at_random(rng.choice(INVISIBLE))
    elif kind == 9:  # several sentences, so a rule can match more than once and a pairing span two
        text = rng.choice(["nunca ", "never ", "se pedirem para ", ""]) + text + rng.choice(
            ["\n", ". ", "\n\n", "; "]) + rng.choice(corpus)
    elif kind == 10:
        start = rng.randrange(len(text) + 1)
        text = text[start:start + rng.randint(1, 200)] or text
    else:
        text = rng.choice([text.upper(), text.casefold(), text.replace("\n", rng.choice(["\r\n", "\n \n", " "]))])
    return text[:8000]


def tricky_texts() -> list[str]:
    rng = random.Random(SEED)
    corpus = load_corpus()
    generated = []
    for _ in range(GENERATED):
        text = rng.choice(corpus)
        for _ in range(rng.choice([1, 2, 3])):
            text = mutate(rng, text, corpus)
        generated.append(text)
    texts = corpus + generated
    texts += [unicodedata.normalize("NFC", t.replace("\r\n", "\n")) for t in generated]  # as the gate stores them
    return list(dict.fromkeys(texts))


TEXTS = tricky_texts()


def as_pair(folded: Folded) -> tuple[str, tuple[int, ...]]:
    return folded.text, folded.origins


def test_fold_fast_path_matches_reference() -> None:
    covered = 0
    for text in TEXTS:
        fast = _fold_characters_fast(text)
        if fast is not None:
            covered += 1
            assert as_pair(fast) == as_pair(_fold_characters_reference(text)), text
        assert as_pair(fold_characters(text)) == as_pair(_fold_characters_reference(text)), text
    assert covered > len(TEXTS) // 2  # the fast path is really exercised, not always declined


def test_fold_fast_path_declines_what_moves_positions() -> None:
    for char in AWKWARD:
        assert _fold_characters_fast(f"abc {char} def") is None, char
    for char in ONE_LETTER:
        assert _fold_characters_fast(f"abc {char} def") is not None, char


def test_word_skeleton_matches_reference() -> None:
    for text in TEXTS:
        assert as_pair(word_skeleton(text)) == as_pair(_word_skeleton_reference(text)), text


def test_compact_skeleton_and_marker_form_match_their_definitions() -> None:
    for text in TEXTS:
        skeleton = word_skeleton(text)
        kept = [(c, o) for c, o in zip(skeleton.text, skeleton.origins) if c != " "]
        compact = compact_skeleton(skeleton)
        assert (compact.text, compact.origins) == ("".join(c for c, _ in kept), tuple(o for _, o in kept))
        folded = fold_characters(text)
        assert "".join(folded.text.split()) == gate._without_spaces(folded).text


def haystack_of(text: str) -> gate._Haystack:
    return gate._Haystack(word_skeleton(text).text, gate._rule_filters()[2])


def spans(matches) -> list[tuple]:
    return [(m.start(), m.end(), m.groupdict()) for m in matches]


def test_rules_searched_by_sentence_find_what_finditer_finds() -> None:
    word_searches = gate._rule_filters()[0]
    found = 0
    for text in TEXTS:
        haystack = haystack_of(text)
        for search in word_searches:
            expected = spans(search.pattern.finditer(haystack.skeleton))
            assert spans(search.matches(haystack)) == expected, (search.pattern.pattern[:80], text)
            found += len(expected)
    assert found > 500  # rules really matched, some several times in one text


def test_pairing_windows_hold_every_window_that_matches() -> None:
    pairing_filters = gate._rule_filters()[1]
    for text in TEXTS[::3]:
        haystack = haystack_of(text)
        sentences = haystack.sentences
        for pairing, (target_filter, action_filter) in zip(gate._PAIRINGS, pairing_filters):
            windows = [" ".join(sentences[i:i + pairing.span]) for i in range(len(sentences))]
            matching = {i for i, window in enumerate(windows)
                        if pairing.target.search(window) and pairing.action.search(window)}
            for prefilter in (target_filter, action_filter):
                candidates = prefilter.windows(haystack, pairing.span)
                assert candidates is None or matching <= candidates, (pairing.name, text)
                for factor in list(haystack._found)[:20]:  # factors the prefilters looked up
                    assert haystack.windows_with(factor, pairing.span) == {
                        i for i, window in enumerate(windows) if factor in window}, (factor, text)


def reference_check_revocation(text: str) -> None:
    """`_check_revocation` as it was before the sentence-by-sentence search: every rule over the
    whole skeleton, every pairing window, the compact form built up front."""
    folded = fold_characters(text)
    tag = gate._AUTHORITY_TAG.search(folded.text)
    if tag:
        start, end = folded.source_span(tag.start() + (folded.text[tag.start()] == "\n"), tag.end())
        raise gate.InstructionsRejected("revocation", gate._excerpt(text, start, end), start, " [authority tag]",
                                        family="authority")
    skeleton = _word_skeleton_reference(text)
    for rule in gate._WORD_RULES:
        for match in rule.pattern.finditer(skeleton.text):
            act_start = match.start("act") if "act" in rule.pattern.groupindex else None
            if not gate._is_excused(skeleton.text, match.start(), match.end(), rule, act_start):
                gate._refuse_revocation(text, skeleton, match.start(), match.end(), rule.name)
    haystack = gate._Haystack(skeleton.text, gate._rule_filters()[2])
    for pairing in gate._PAIRINGS:
        gate._check_pairing(text, skeleton, pairing, haystack, None)
    kept = [(c, o) for c, o in zip(skeleton.text, skeleton.origins) if c != " "]
    compact = Folded("".join(c for c, _ in kept), tuple(o for _, o in kept))
    for rule in gate._COMPACT_RULES:
        for match in rule.pattern.finditer(compact.text):
            source_start, source_end = compact.source_span(match.start(), match.end())
            start = bisect.bisect_left(skeleton.origins, source_start)
            end = bisect.bisect_left(skeleton.origins, source_end)
            if not gate._is_excused(skeleton.text, start, end, rule):
                gate._refuse_revocation(text, skeleton, start, end, rule.name)


def outcome(check, text: str) -> tuple:
    try:
        check(text)
    except gate.InstructionsRejected as refused:
        return refused.reason, refused.excerpt, refused.offset, str(refused)
    return ("accepted",)


def test_revocation_check_matches_reference() -> None:
    refused = 0
    for text in TEXTS:
        expected = outcome(reference_check_revocation, text)
        assert outcome(gate._check_revocation, text) == expected, text
        refused += expected[0] == "revocation"
    assert refused > 300


@pytest.mark.parametrize("pattern", [
    r"\bfoo\n", r"\bfoo$", r"\bfoo\Z", r"\bfoo\s", r"\bfoo\W", r"\bfoo[^a]", r"\bfoo.", r"\bfoo(?=\nx)",
    r"\bfoo(?=(?:\n|$)x)", r"\bfoo(?=(?:\n|$)+)", r"\bfoo(?<=o$)", r"\bfoo(?= ?(?:\n|$)|\n)", r"\b(?:foo)?",
])
def test_patterns_that_could_read_past_a_sentence_are_searched_whole(pattern: str) -> None:
    import re

    assert not gate._searches_by_sentence(re.compile(pattern))


@pytest.mark.parametrize("pattern", [r"\bfoo(?=\n|$)", r"\bfoo(?= ?(?:\n|$)| (?:and|e)\b)", r"\bfoo(?!\n|$)"])
def test_sentence_end_lookahead_allows_searching_by_sentence(pattern: str) -> None:
    import re

    assert gate._searches_by_sentence(re.compile(pattern))
