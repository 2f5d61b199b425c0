"""Tenant, project and agent references: an id (ASCII digits) or a slug, nothing else.

`str.isdigit()` accepts '²' and '٣' (and `int('٣')` is 3), so a reference is read here, once,
by explicit rules: fail closed, one clear message, never a traceback. A reference is an id
when it is ASCII digits only (`[0-9]+`, no sign, no spaces); an id that no row can have (0, or
beyond bigint) is NotFound. Anything else must be a slug (`^[a-z0-9]+(-[a-z0-9]+)*$`, at most
80 characters), else InvalidReference (an InvalidInput; exit 2 on the command line) naming the
rule. A value holding bytes that were not UTF-8 (Python decodes them in argv and file names as
lone surrogates) is refused the same way, naming the byte, before it can reach the database.
"""

from __future__ import annotations

import argparse
import re

from registry import limits
from registry.errors import InvalidInput, NotFound

_ID = re.compile(r"[0-9]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_MAX_ID = 2**63 - 1


class InvalidReference(InvalidInput):
    """A tenant, project or agent reference that can name nothing: refused before any query.

    Exit code 2 on the command line, as for any other value that is wrong before it reaches the
    database; to the API it is an InvalidInput like any other."""

    exit_code = 2


def parse_ref(value: str | int, what: str = "tenant") -> int | str:
    """An id (int) for ASCII digits, else a slug (str); anything else is InvalidReference, and
    an id beyond what the database can hold is NotFound. `what` names the value in the message
    ("tenant", "--as-tenant", "agent", …)."""
    if isinstance(value, bool):
        raise InvalidReference(f"{what} reference must be a slug or an id, not {value!r}")
    if isinstance(value, int):
        return check_id(value, what)
    text = _check_text(value, what)
    if _ID.fullmatch(text):
        return check_id(int(text), what)
    return _slug(text, what, "an id (ASCII digits 0-9) or a slug")


def check_id(value: int, what: str) -> int:
    """An id as the database can hold it; anything beyond bigint names no row."""
    if 0 < value <= _MAX_ID:
        return value
    raise NotFound(f"no {what} with id {value}: ids are positive 64-bit integers")


def parse_slug(value: str, what: str = "slug", *, allow_empty: bool = False) -> str:
    """A slug as given (never an id): `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 80 characters.
    `allow_empty` lets '' through where it means "explicitly none" (defaults, pins)."""
    text = _check_text(value, what)
    if text == "" and allow_empty:
        return text
    return _slug(text, what, "a slug")


def is_ascii_id(text: str) -> bool:
    """ASCII digits only: what an id looks like on a command line (not str.isdigit, which takes "²")."""
    return _ID.fullmatch(text) is not None


def ascii_int(text: str) -> int:
    """argparse type for ids and versions: ASCII digits only (int() would take '٣' as 3)."""
    if not is_ascii_id(text):
        raise argparse.ArgumentTypeError(f"expected a number in ASCII digits 0-9, got {shown(text)}")
    # Too large for any row is not a typo: the command answers "no conversation …" (exit 4).
    return int(text)


def shown(value: str, limit: int = 60) -> str:
    """A value as it may be printed in a one-line message: ASCII-escaped (no terminal escapes, no
    bidi reordering, no lone surrogates), and cut when long."""
    text = ascii(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def not_utf8(value: str) -> str | None:
    """Where `value` stops being text, for a message: the first byte that was not UTF-8 where it
    came from (Python decodes such bytes in argv and file names as lone surrogates), or None."""
    for index, char in enumerate(value):
        if "\udc80" <= char <= "\udcff":
            offset = len(value[:index].encode("utf-8", "surrogateescape"))
            return f"byte 0x{ord(char) - 0xDC00:02x} at offset {offset}"
        if "\ud800" <= char <= "\udfff":
            return f"lone surrogate U+{ord(char):04X} at character {index}"
    return None


def _check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidReference(f"{what} reference must be a slug or an id, not {type(value).__name__}")
    bad = not_utf8(value)
    if bad is not None:
        raise InvalidReference(f"{what} {shown(value)} is not valid UTF-8 ({bad})")
    return value


def _slug(text: str, what: str, wanted: str) -> str:
    if text.strip() == "":
        raise InvalidReference(f"{what} is {'empty' if text == '' else 'blank'}: give a slug (lowercase "
                               "kebab-case) or an id (ASCII digits)")
    if len(text) > limits.SLUG or not _SLUG.fullmatch(text):
        raise InvalidReference(f"{what} {shown(text)} must be {wanted} (lowercase a-z, 0-9 and single hyphens, "
                               f"at most {limits.SLUG} characters)")
    return text
