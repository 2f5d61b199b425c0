"""The word classes the subject families are written in, loaded from the data files
registry/gate/lexicon/*.toml (this module is named apart from that folder so the two never clash).

Every entry is folded exactly as a text is (registry.gate_normalize.word_skeleton), so a linguist
writes "instruções" or "don't" and the gate matches what a text folds to. Classes of the same name
in different language files are merged: the gate does not guess a sentence's language.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources

from registry.gate_normalize import word_skeleton

LANGUAGES = ("en", "pt", "es", "fr", "de", "it")


@dataclass
class Lexicon:
    # word -> classes it belongs to, for one-word entries
    words: dict[str, set[str]] = field(default_factory=dict)
    # first three letters -> [(stem, classes)], for one-word entries written "word*"
    prefixes: dict[str, list[tuple[str, set[str]]]] = field(default_factory=dict)
    # first word -> [(remaining words, class)], for multi-word entries; a remaining word may end in "*"
    phrases: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    # (first word, second word) -> the phrases it starts, most of them, looked up in one step: those with a third
    # word, by that word (a common pair — "do not", "o que", "como se" — starts dozens of phrases, and the word after
    # it rules out most at once), and those it cannot select (the pair alone, or a third word written "word*"). Each
    # is (its place among the pair's phrases, words after the second, class): matches come out in the order added.
    pairs: dict[tuple[str, str], tuple[dict[str, list[tuple[int, tuple[str, ...], str]]],
                                       list[tuple[int, tuple[str, ...], str]]]] = field(default_factory=dict)
    classes: set[str] = field(default_factory=set)

    def add(self, cls: str, entry: str) -> None:
        star = entry.endswith("*")
        folded = word_skeleton(entry.rstrip("*")).text.replace("\n", " ").split()
        if not folded:
            return
        self.classes.add(cls)
        if star:
            folded[-1] += "*"
        if len(folded) == 1:
            word = folded[0]
            if word.endswith("*"):
                stem = word[:-1]
                bucket = self.prefixes.setdefault(stem[:3], [])
                for known, classes in bucket:
                    if known == stem:
                        classes.add(cls)
                        break
                else:
                    bucket.append((stem, {cls}))
            else:
                self.words.setdefault(word, set()).add(cls)
        elif not folded[1].endswith("*"):
            rest = tuple(folded[2:])
            by_third, others = self.pairs.setdefault((folded[0], folded[1]), ({}, []))
            entry = (len(others) + sum(map(len, by_third.values())), rest, cls)
            if rest and not rest[0].endswith("*"):
                by_third.setdefault(rest[0], []).append(entry)
            else:
                others.append(entry)
        else:
            self.phrases.setdefault(folded[0], []).append((tuple(folded[1:]), cls))


def _raw_entries() -> dict[str, dict[str, list[str]]]:
    folder = resources.files("registry.gate") / "lexicon"
    return {lang: tomllib.loads((folder / f"{lang}.toml").read_text(encoding="utf-8")) for lang in LANGUAGES}


@functools.cache
def lexicon() -> Lexicon:
    built = Lexicon()
    for entries in _raw_entries().values():
        for cls, words in entries.items():
            for entry in words:
                built.add(cls, entry)
    return built


_WORD_CLASSES: dict[str, tuple[str, ...]] = {}  # one-word classes of a token, memoised: texts repeat words


def _word_classes(token: str, lex: Lexicon) -> tuple[str, ...]:
    classes = _WORD_CLASSES.get(token)
    if classes is None:
        found = set(lex.words.get(token, ()))
        for stem, stem_classes in lex.prefixes.get(token[:3], ()):
            if token.startswith(stem):
                found |= stem_classes
        classes = tuple(sorted(found))
        if len(_WORD_CLASSES) > 50_000:
            _WORD_CLASSES.clear()
        _WORD_CLASSES[token] = classes
    return classes


def _rest_matches(rest: tuple[str, ...], tokens: list[str], at: int) -> bool:
    for offset, word in enumerate(rest):
        other = tokens[at + offset]
        if word.endswith("*"):
            if not other.startswith(word[:-1]):
                return False
        elif other != word:
            return False
    return True


def classes_at(tokens: list[str], lex: Lexicon) -> dict[str, list[tuple[int, int]]]:
    """For each class, the (start, end) token spans of its entries in `tokens`."""
    found: dict[str, list[tuple[int, int]]] = {}
    phrases, pairs = lex.phrases, lex.pairs
    count = len(tokens)
    for i, token in enumerate(tokens):
        classes = _WORD_CLASSES.get(token)
        if classes is None:
            classes = _word_classes(token, lex)
        for cls in classes:
            found.setdefault(cls, []).append((i, i + 1))
        if i + 1 < count:
            indexed = pairs.get((token, tokens[i + 1]))
            if indexed:
                by_third, others = indexed
                selected = by_third.get(tokens[i + 2]) if i + 2 < count else None
                candidates = others if not selected else selected if not others else sorted(selected + others)
                for _, rest, cls in candidates:
                    end = i + 2 + len(rest)
                    if end <= count and (not rest or _rest_matches(rest, tokens, i + 2)):
                        found.setdefault(cls, []).append((i, end))
        candidates = phrases.get(token)
        if candidates:
            for rest, cls in candidates:
                end = i + 1 + len(rest)
                if end <= count and _rest_matches(rest, tokens, i + 1):
                    found.setdefault(cls, []).append((i, end))
    return found
