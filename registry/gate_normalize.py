"""Folding text into the forms the instruction gate searches.

The gate never searches the customer's text as written: an attack can hide behind case, accents,
full-width letters, Cyrillic or Greek look-alikes, leetspeak digits, or punctuation and spaces
inserted between letters. This module undoes those disguises and keeps, for every folded
character, the index of the source character it came from, so a refusal can quote the original.

Three forms, each a `Folded`:

- `fold_characters`: one character at a time — NFKC, accents stripped, casefolded, look-alikes
  mapped to Latin. Whitespace runs become one space (a newline stays a newline). Used for markers.
- `word_skeleton`: words of letters separated by single spaces, with "\\n" wherever a sentence or
  paragraph ends, so word patterns never match across sentences. Punctuation inside a word is
  dropped ("i.g.n.o.r.e", "ig-nore" → "ignore"), leetspeak digits inside a word become letters,
  and runs of three or more single letters are joined ("I G N O R E" → "ignore").
- `compact_skeleton`: the word skeleton without its spaces, for attacks that removed or scattered
  the spaces ("ignore.all.previous.instructions", "I G N O R E  A L L").
"""

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Cyrillic and Greek letters that render like Latin ones (after casefolding). Only letters a
# reader would take for Latin are mapped: the point is to see what the model will read.
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "і": "i", "ї": "i", "ј": "j", "к": "k",
        "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
        "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "s",
        # Latin look-alikes outside ASCII
        "ı": "i", "ɩ": "i",
    }
)

# Digits and symbols that stand in for letters inside a word ("1gn0r3", "r3gl4s", "in$truções").
# Only applied to words that already contain a letter, so "2024" and "top 5" stay numbers.
_LEETSPEAK = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})

# Punctuation that ends a sentence when it closes a word ("anteriores." / "dados;").
_SENTENCE_END = frozenset(".;:!?…")
_CLOSERS = ")]}\"'»”’"
_BULLETS = frozenset("-*•·–—>")
_SINGLE_LETTER_RUN = 3
# Chat abbreviations a careless or hurried writer uses ("esquece tudo q te falaram", "oq eu mando",
# "olvidate de las reglas q te pusieron"). Expanded whole-word only, after spaced letters are joined,
# so the patterns see the words they were written for.
_ABBREVIATIONS = {
    "q": "que", "n": "nao", "oq": "o que", "vc": "voce", "vcs": "voces", "td": "tudo", "tds": "todos", "pq": "porque",
    "tb": "tambem", "tbm": "tambem", "msm": "mesmo", "qq": "qualquer", "qlq": "qualquer", "hj": "hoje",
    "agr": "agora", "cmg": "comigo", "blz": "beleza", "xq": "porque", "tmb": "tambien", "pls": "please",
    "plz": "please", "ur": "your",
}


@dataclass(frozen=True)
class Folded:
    """Folded text plus, for each of its characters, the index of the source character."""

    text: str
    origins: tuple[int, ...]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The source text's [start, end) covered by folded characters [start, end)."""
        return self.origins[start], self.origins[end - 1] + 1


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", char))
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return bare.casefold().translate(_CONFUSABLES)


# The gate folds the same text for the marker check, the authority-tag check and the skeleton;
# `Folded` is immutable, so the last few results are shared.
@lru_cache(maxsize=8)
def fold_characters(text: str) -> Folded:
    chars: list[str] = []
    origins: list[int] = []
    for index, char in enumerate(text):
        if char.isspace():
            folded = "\n" if char == "\n" else " "
            if chars and chars[-1] in " \n":
                if folded == "\n":
                    chars[-1] = "\n"  # a newline outranks a space next to it
                continue
            chars.append(folded)
            origins.append(index)
            continue
        for piece in _fold_char(char):
            chars.append(piece)
            origins.append(index)
    return Folded("".join(chars), tuple(origins))


@dataclass
class _Word:
    letters: list[tuple[str, int]]
    ends_sentence: bool


def _words_of_line(line: list[tuple[str, int]]) -> list[_Word]:
    """Split one line of folded characters into words, keeping sentence ends."""
    words: list[_Word] = []
    chunk: list[tuple[str, int]] = []

    def close_chunk() -> None:
        if not chunk:
            return
        has_letter = any(c.isalpha() for c, _ in chunk)
        letters: list[tuple[str, int]] = []
        for c, origin in chunk:
            if has_letter:
                c = c.translate(_LEETSPEAK)
            if c.isalnum():
                letters.append((c, origin))
        closing = "".join(c for c, _ in chunk).rstrip(_CLOSERS)
        ends_sentence = bool(closing) and closing[-1] in _SENTENCE_END
        if letters:
            words.append(_Word(letters, ends_sentence))
        elif ends_sentence and words:
            words[-1].ends_sentence = True
        chunk.clear()

    for char, origin in line:
        if char == " ":
            close_chunk()
        else:
            chunk.append((char, origin))
    close_chunk()
    return words


def _join_single_letter_runs(words: list[_Word]) -> list[_Word]:
    """'i g n o r e a l l' → 'ignoreall': spaced-out letters are an obfuscation, not words."""
    joined: list[_Word] = []
    run: list[_Word] = []

    def flush() -> None:
        if len(run) >= _SINGLE_LETTER_RUN:
            joined.append(_Word([pair for word in run for pair in word.letters], run[-1].ends_sentence))
        else:
            joined.extend(run)
        run.clear()

    for word in words:
        # A lone digit is a number ("a regra 1 e a regra 6"), not a spaced-out letter.
        if len(word.letters) == 1 and word.letters[0][0].isalpha():
            run.append(word)
            if word.ends_sentence:
                flush()
        else:
            flush()
            joined.append(word)
    flush()
    return joined


def _lines(folded: Folded) -> list[tuple[list[tuple[str, int]], bool]]:
    """Source lines as (characters, starts_new_sentence). A blank line or a bullet starts one."""
    lines: list[tuple[list[tuple[str, int]], bool]] = []
    current: list[tuple[str, int]] = []
    blank_before = True
    for char, origin in zip(folded.text, folded.origins):
        if char == "\n":
            lines.append((current, blank_before))
            blank_before = not current
            current = []
        else:
            current.append((char, origin))
    lines.append((current, blank_before))
    return [
        (line, starts or (bool(line) and line[0][0] in _BULLETS) or (bool(line) and line[0][0].isdigit()))
        for line, starts in lines
        if line
    ]


def word_skeleton(text: str) -> Folded:
    folded = fold_characters(text)
    chars: list[str] = []
    origins: list[int] = []
    words: list[_Word] = []
    for line, starts_sentence in _lines(folded):
        if starts_sentence and words:
            words[-1].ends_sentence = True
        words.extend(_words_of_line(line))
    for word in _join_single_letter_runs(words):
        expansion = _ABBREVIATIONS.get("".join(c for c, _ in word.letters)) if len(word.letters) <= 4 else None
        if expansion:
            chars.extend(expansion)
            origins.extend([word.letters[0][1]] * len(expansion))
            chars.append("\n" if word.ends_sentence else " ")
            origins.append(word.letters[-1][1])
            continue
        for char, origin in word.letters:
            chars.append(char)
            origins.append(origin)
        chars.append("\n" if word.ends_sentence else " ")
        origins.append(word.letters[-1][1])
    return Folded("".join(chars), tuple(origins))


def compact_skeleton(skeleton: Folded) -> Folded:
    kept = [(c, o) for c, o in zip(skeleton.text, skeleton.origins) if c != " "]
    return Folded("".join(c for c, _ in kept), tuple(o for _, o in kept))
