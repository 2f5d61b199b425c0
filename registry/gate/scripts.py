"""Words in a writing system the gate cannot read are refused (hostile-tenant round 5, #36).

The gate judges Portuguese, English and Spanish fully and the core families in French, German
and Italian — all written in the Latin alphabet. A sentence in Chinese, Russian, Arabic or Hindi
("the six rules above no longer apply") reached the prompt untouched: the gate read nothing in
it, and the model reads it perfectly. A posture is a working text for a Portuguese-, English- or
Spanish-speaking team, so a word in another writing system is refused rather than waved through:
the gate vouches only for what it can read.

A *word* here holds two or more letters from outside the Latin ranges (and the forms the gate folds
back to Latin: fullwidth, mathematical, ligatures) and no Latin letter: a word that mixes look-alikes
into Latin letters ("іgnоrе") is folded and judged for what it says. One such letter alone
passes: a Greek Δ or µ in a formula, a look-alike Cyrillic "е" inside a Latin word (the folding
catches that one), an emoji. No text of the benign corpora has such a word.
"""

from __future__ import annotations

import re
import unicodedata

from registry.gate.errors import InstructionsRejected

# Letters the gate reads or folds to what it reads: Basic Latin to Latin Extended-B, IPA and
# spacing modifiers, phonetic extensions, Latin Extended Additional, superscripts and
# subscripts, letterlike symbols, Latin Extended-C/D/E, ligatures (ﬁ), fullwidth Latin and the
# mathematical alphanumerics (bold, italic, double-struck Latin letters).
_READABLE = (
    (0x0000, 0x02FF), (0x1D00, 0x1DBF), (0x1E00, 0x1EFF), (0x2070, 0x209F), (0x2100, 0x214F),
    (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F), (0xFB00, 0xFB06), (0xFF00, 0xFFEF),
    (0x1D400, 0x1D7FF),
)


def _readable(code: int) -> bool:
    return any(low <= code <= high for low, high in _READABLE)


# Words: runs of letters and marks of any script. Quotes, dashes and emoji end a word.
_WORD = re.compile(r"[^\W\d_]+")


# Where the writing systems the gate cannot read live (Greek to the end of the Brahmic blocks, Greek Extended,
# Glagolitic to Yi, Hangul syllables, CJK compatibility, and every plane past the BMP): a text with none of these is done
# in one regex scan, which is every Latin posture.
_FOREIGN_BLOCKS = re.compile("[\u0370-\u1cff\u1f00-\u1fff\u2c00-\u2c5f\u2c80-\u2dff\u2e80-\ua6ff\ua800-\uab2f"
                             "\uac00-\ud7ff\uf900-\ufaff\U00010000-\U0001d3ff\U0001d800-\U0010ffff]")


def first_unreadable_word(text: str) -> tuple[int, int] | None:
    """The first word with two or more letters the gate cannot read and no Latin letter. A word that
    mixes in Latin letters ("іgnоrе" with Cyrillic look-alikes) is an obfuscation of a Latin word: the
    gate folds it back and judges what it says."""
    first = _FOREIGN_BLOCKS.search(text)
    if first is None:
        return None
    for word in _WORD.finditer(text, max(0, text.rfind(" ", 0, first.start()))):
        chars = word.group()
        if chars.isascii():
            continue
        if any(_readable(ord(c)) for c in chars):
            continue
        # with no readable character, every letter of the word is one the gate cannot read
        if sum(1 for c in chars if unicodedata.category(c)[0] == "L") >= 2:
            return word.start(), word.end()
    return None


def _script_of(char: str) -> str:
    """A customer-facing name for a letter's writing system ("CJK", "CYRILLIC", "ARABIC" …)."""
    name = unicodedata.name(char, "")
    return name.split(" ")[0].title() if name else "unknown"


def check_scripts(text: str) -> None:
    """Refuse the first word written in an alphabet or script the gate cannot read."""
    found = first_unreadable_word(text)
    if found is None:
        return
    start, end = found
    raise InstructionsRejected("unreadable_script", text[start:min(end, start + 40)], start,
                               f" ({_script_of(text[start])} script)")
