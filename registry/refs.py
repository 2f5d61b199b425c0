"""Tenant and project references: an id (ASCII digits) or a slug, nothing else.

`str.isdigit()` accepts '²' and '٣' (and `int('٣')` is 3), so a reference is read here, once,
by explicit rules: fail closed, one clear message, never a traceback.
"""

from __future__ import annotations

import re

from registry import limits
from registry.errors import InvalidInput, NotFound

_ID = re.compile(r"[0-9]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_MAX_ID = 2**63 - 1


def parse_ref(value: str | int, what: str = "tenant") -> int | str:
    """An id (int) for ASCII digits, else a slug (str); anything else is InvalidInput."""
    if isinstance(value, bool):
        raise InvalidInput(f"{what} reference must be a slug or an id, not {value!r}")
    if isinstance(value, int):
        return check_id(value, what)
    if not isinstance(value, str):
        raise InvalidInput(f"{what} reference must be a slug or an id, not {type(value).__name__}")
    if _ID.fullmatch(value):
        return check_id(int(value), what)
    if _SLUG.fullmatch(value) and len(value) <= limits.SLUG:
        return value
    raise InvalidInput(f"{what} {ascii(value[:60])} is neither an id (ASCII digits) nor a slug "
                       f"(lowercase a-z, 0-9 and single hyphens, at most {limits.SLUG} characters)")


def check_id(value: int, what: str) -> int:
    """An id as the database can hold it; anything beyond bigint names no row."""
    if 0 < value <= _MAX_ID:
        return value
    raise NotFound(f"no {what} with id {value}: ids are positive 64-bit integers")
