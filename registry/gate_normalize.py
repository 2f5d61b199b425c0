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

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress

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
    return _fold_characters_fast(text) or _fold_characters_reference(text)


def _fold_characters_reference(text: str) -> Folded:
    """One character at a time: the definition of the folded form (and the fallback of the fast path)."""
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


# A run of two or more whitespace characters, once every whitespace character is a space or a newline.
_BLANK_RUN = re.compile(r"[ \n]{2,}")


@lru_cache(maxsize=4096)
def _one_to_one_fold(char: str) -> str | None:
    """What `char` becomes in a text where folding keeps positions: whitespace becomes a space (a newline
    stays), anything else must fold to exactly one character that is not whitespace. None otherwise."""
    if char.isspace():
        return "\n" if char == "\n" else " "
    folded = _fold_char(char)
    return folded if len(folded) == 1 and not folded.isspace() else None


def _fold_characters_fast(text: str) -> Folded | None:
    """`_fold_characters_reference` in C-speed steps, or None for a text it does not cover.

    Covered: every character folds to one non-whitespace character, or is whitespace. Then one
    `str.translate` folds the text without moving anything, and the only characters the reference
    drops are whitespace after the first of a run: the run becomes one character at the origin of
    its first, a newline if the run holds one. A character folding to nothing, to several
    characters or to a space (a lone combining mark, "ß" → "ss", "¨" → " ") shifts positions or
    joins runs, so such a text takes the reference path.
    """
    table: dict[int, str] = {}
    for char in set(text):
        folded = _one_to_one_fold(char)
        if folded is None:
            return None
        if folded != char:
            table[ord(char)] = folded
    translated = text.translate(table)
    runs = [(run.start(), run.end()) for run in _BLANK_RUN.finditer(translated)]
    if not runs:
        return Folded(translated, tuple(range(len(text))))
    pieces: list[str] = []
    kept: list[range] = []
    previous_end = 0
    for start, end in runs:
        pieces.append(translated[previous_end:start])
        pieces.append("\n" if "\n" in translated[start:end] else " ")
        kept.append(range(previous_end, start + 1))  # the text before the run and the run's first character
        previous_end = end
    pieces.append(translated[previous_end:])
    kept.append(range(previous_end, len(text)))
    return Folded("".join(pieces), tuple(chain.from_iterable(kept)))


@dataclass
class _Word:
    letters: list[tuple[str, int]]
    ends_sentence: bool


def _words_of_line(line: str, origins: tuple[int, ...], offset: int) -> list[_Word]:
    """Split one line of folded text (starting at `offset` in the folded text) into words, keeping sentence ends."""
    words: list[_Word] = []
    position = offset
    for chunk in line.split(" "):
        chunk_start = position
        position += len(chunk) + 1
        if not chunk:
            continue
        chunk_origins = origins[chunk_start:chunk_start + len(chunk)]
        # Leetspeak is undone only in chunks that hold a letter, so "2024" stays a number. The
        # table maps one character to one, so positions still line up with the origins.
        if chunk.isalpha() or any(c.isalpha() for c in chunk):
            chunk_letters = chunk.translate(_LEETSPEAK)
        else:
            chunk_letters = chunk
        if chunk_letters.isalnum():  # the common case: nothing to drop
            letters = list(zip(chunk_letters, chunk_origins))
        else:
            letters = [(c, origin) for c, origin in zip(chunk_letters, chunk_origins) if c.isalnum()]
        closing = chunk.rstrip(_CLOSERS)
        ends_sentence = bool(closing) and closing[-1] in _SENTENCE_END
        if letters:
            words.append(_Word(letters, ends_sentence))
        elif ends_sentence and words:
            words[-1].ends_sentence = True
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


def _lines(folded: Folded) -> list[tuple[str, int, bool]]:
    """Non-empty lines as (text, offset in the folded text, starts_new_sentence).

    A line after a blank line (or the first), a bullet or a numbered item starts a sentence.
    """
    lines: list[tuple[str, int, bool]] = []
    position = 0
    blank_before = True
    for line in folded.text.split("\n"):
        offset = position
        position += len(line) + 1
        if line:
            starts = blank_before or line[0] in _BULLETS or line[0].isdigit()
            lines.append((line, offset, starts))
        blank_before = not line
    return lines


@lru_cache(maxsize=8)  # the fitted rules and the subject families read the same skeleton
def word_skeleton(text: str) -> Folded:
    return _skeleton_of(_skeleton_words(fold_characters(text)))


def _word_skeleton_reference(text: str) -> Folded:
    """The word skeleton built letter by letter: the definition `word_skeleton` must agree with."""
    folded = fold_characters(text)
    chars: list[str] = []
    origins: list[int] = []
    words: list[_Word] = []
    for line, offset, starts_sentence in _lines(folded):
        if starts_sentence and words:
            words[-1].ends_sentence = True
        words.extend(_words_of_line(line, folded.origins, offset))
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


# The same steps as the reference, a word at a time instead of a letter at a time: a word is
# [letters, origins of the letters, ends_sentence], its letters one string and its origins one
# slice of the folded origins, so the usual word (all letters) costs a split and a slice.
_SkeletonWord = list  # [str, tuple[int, ...], bool]


def _skeleton_words(folded: Folded) -> list[_SkeletonWord]:
    """The words of the folded text, sentence ends marked (`_lines` + `_words_of_line`)."""
    words: list[_SkeletonWord] = []
    all_origins = folded.origins
    position = 0
    blank_before = True
    for line in folded.text.split("\n"):
        offset = position
        position += len(line) + 1
        if not line:
            blank_before = True
            continue
        # A line after a blank line (or the first), a bullet or a numbered item starts a sentence.
        if (blank_before or line[0] in _BULLETS or line[0].isdigit()) and words:
            words[-1][2] = True
        blank_before = False
        first_of_line = len(words)
        chunk_start = offset
        for chunk in line.split(" "):
            start = chunk_start
            chunk_start += len(chunk) + 1
            if not chunk:
                continue
            if chunk.isalpha():  # the common case: no leetspeak, nothing to drop, no sentence end
                words.append([chunk, all_origins[start:start + len(chunk)], False])
                continue
            letters, origins = _letters_of_chunk(chunk, all_origins[start:start + len(chunk)])
            closing = chunk.rstrip(_CLOSERS)
            ends_sentence = bool(closing) and closing[-1] in _SENTENCE_END
            if letters:
                words.append([letters, origins, ends_sentence])
            elif ends_sentence and len(words) > first_of_line:  # "dados ." ends the sentence of its own line only
                words[-1][2] = True
    return words


def _letters_of_chunk(chunk: str, origins: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """A chunk's letters and digits with their origins, leetspeak undone if it holds a letter."""
    undone = chunk.translate(_LEETSPEAK)  # one character for one: positions still line up
    if undone != chunk and any(c.isalpha() for c in chunk):
        chunk = undone
    if chunk.isalnum():
        return chunk, origins
    keep = [c.isalnum() for c in chunk]
    return "".join(compress(chunk, keep)), tuple(compress(origins, keep))


def _joined_single_letter_runs(words: list[_SkeletonWord]) -> list[_SkeletonWord]:
    """`_join_single_letter_runs` on skeleton words."""
    if not any(len(word[0]) == 1 for word in words):
        return words
    joined: list[_SkeletonWord] = []
    run: list[_SkeletonWord] = []

    def flush() -> None:
        if len(run) >= _SINGLE_LETTER_RUN:
            joined.append(["".join(w[0] for w in run), tuple(chain.from_iterable(w[1] for w in run)), run[-1][2]])
        else:
            joined.extend(run)
        run.clear()

    for word in words:
        # A lone digit is a number ("a regra 1 e a regra 6"), not a spaced-out letter.
        if len(word[0]) == 1 and word[0].isalpha():
            run.append(word)
            if word[2]:
                flush()
        else:
            if run:
                flush()
            joined.append(word)
    flush()
    return joined


def _skeleton_of(words: list[_SkeletonWord]) -> Folded:
    """Words separated by a space, or a newline after a sentence end; chat abbreviations expanded."""
    pieces: list[str] = []
    origins: list[int] = []
    for letters, letter_origins, ends_sentence in _joined_single_letter_runs(words):
        expansion = _ABBREVIATIONS.get(letters) if len(letters) <= 4 else None
        if expansion:
            pieces.append(expansion)
            origins.extend([letter_origins[0]] * len(expansion))
        else:
            pieces.append(letters)
            origins.extend(letter_origins)
        pieces.append("\n" if ends_sentence else " ")
        origins.append(letter_origins[-1])
    return Folded("".join(pieces), tuple(origins))


def compact_skeleton(skeleton: Folded) -> Folded:
    """The skeleton without its spaces (newlines stay)."""
    return Folded(skeleton.text.replace(" ", ""), tuple(compress(skeleton.origins, map(" ".__ne__, skeleton.text))))
