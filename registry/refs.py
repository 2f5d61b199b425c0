"""References to tenants, projects and agents as people type them: one rule, checked before any
query runs.

A reference is an id when it is ASCII digits only (`[0-9]+`, no sign, no spaces, within
bigint); otherwise it is a slug, which must match `^[a-z0-9]+(-[a-z0-9]+)*$` and be at most 80
characters. Anything else is refused with InvalidReference naming the rule — never taken as
an id by accident (str.isdigit and int() take "²" or "٣" as digits; this module does not)
and never passed on to the database (a lone surrogate from a non-UTF-8 argv would fail to
encode there).
"""

from __future__ import annotations

import argparse
import re

from registry.errors import InvalidInput
from registry.limits import SLUG

BIGINT_MAX = 2**63 - 1
_ID = re.compile(r"[0-9]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class InvalidReference(InvalidInput):
    """A tenant, project or agent reference that can name nothing: refused before any query.

    Exit code 2, as for any other value that is wrong before it reaches the database."""

    exit_code = 2


def is_ascii_id(text: str) -> bool:
    """ASCII digits only: what an id looks like on a command line (not str.isdigit, which takes "²")."""
    return _ID.fullmatch(text) is not None


def ascii_int(text: str) -> int:
    """argparse type for ids and versions: ASCII digits only (int() would take '٣' as 3)."""
    if not is_ascii_id(text) or int(text) > BIGINT_MAX:
        raise argparse.ArgumentTypeError(f"expected a number in ASCII digits 0-9, got {shown(text)}")
    return int(text)


def shown(value: str, limit: int = 60) -> str:
    """A value as it may be printed in a one-line message: escaped (repr), and cut when long."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
        raise InvalidReference(f"{what}: expected a slug or an id, got {type(value).__name__}")
    bad = not_utf8(value)
    if bad is not None:
        raise InvalidReference(f"{what} {shown(value)} is not valid UTF-8 ({bad})")
    return value


def parse_ref(value: str | int, what: str = "reference") -> int | str:
    """A tenant or project (or agent) reference: an int id for ASCII digits, else a valid slug.

    `what` names the value in the message ("tenant", "--as-tenant", …). Raises InvalidReference."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= BIGINT_MAX:
            raise InvalidReference(f"{what} id {value} is out of range: ids are 0 to {BIGINT_MAX}")
        return value
    text = _check_text(value, what)
    if _ID.fullmatch(text):
        number = int(text)
        if number > BIGINT_MAX:
            raise InvalidReference(f"{what} id {shown(text)} is out of range: ids are 0 to {BIGINT_MAX}")
        return number
    return _slug(text, what, "an id (ASCII digits 0-9) or a slug")


def parse_slug(value: str, what: str = "slug", *, allow_empty: bool = False) -> str:
    """A slug as given (never an id): `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 80 characters.
    `allow_empty` lets '' through where it means "explicitly none" (defaults, pins)."""
    text = _check_text(value, what)
    if text == "" and allow_empty:
        return text
    return _slug(text, what, "a slug")


def _slug(text: str, what: str, wanted: str) -> str:
    if text.strip() == "":
        raise InvalidReference(f"{what} is {'empty' if text == '' else 'blank'}: give a slug (lowercase "
                               "kebab-case) or an id (ASCII digits)")
    if len(text) > SLUG or not _SLUG.fullmatch(text):
        raise InvalidReference(f"{what} {shown(text)} must be {wanted} (lowercase a-z, 0-9 and single hyphens, "
                               f"at most {SLUG} characters)")
    return text
