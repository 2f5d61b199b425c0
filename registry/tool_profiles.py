"""Tool profiles: which of the product's tools an agent's conversations get to see.

A profile narrows, never widens: `filter_tools` returns a subset of the tools it is given,
whatever the profile says. The pipeline is include → exclude → verified → cap. The result is
sorted by tool name (code-point order) before the cap, so the same tools in any input order
give the same list — the tool list is part of the provider's cached prefix — and the cap keeps
the same tools every time. A product that wants a priority order should encode it in names or
filter before calling; order of arrival is not trusted because it often comes from a dict or set.

Globs are fnmatch's `*`, `?`, `[...]` and `[!...]`, matched case-sensitively. Patterns are checked
when a profile is written, so a bad glob is refused with its reason rather than silently
matching nothing at run time.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from fnmatch import fnmatchcase
from itertools import pairwise
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from registry import limits
from registry.errors import InvalidInput

MAX_PATTERN_LENGTH = 128
MAX_PATTERNS = 64
# Tool names are identifiers, sometimes namespaced ("server:tool", "group/tool"); anything else
# in a pattern is far more likely a mistake (a space, a regex) than a real tool name.
NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_-.:/")
GLOB_CHARACTERS = frozenset("*?[]!")


def validate_glob(pattern: str) -> str:
    """`pattern` if it is a glob this module accepts; otherwise ValueError saying what is wrong."""
    if not pattern:
        raise ValueError("a glob pattern cannot be empty")
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise ValueError(f"glob {pattern[:20]!r}… is {len(pattern)} characters long, the limit is {MAX_PATTERN_LENGTH}")
    unexpected = sorted(set(pattern) - NAME_CHARACTERS - GLOB_CHARACTERS)
    if unexpected:
        raise ValueError(f"glob {pattern!r} has characters {''.join(unexpected)!r}; allowed are ASCII letters, "
                         f"digits, _ - . : / and the glob characters * ? [ ] !")
    _check_brackets(pattern)
    return pattern


def _check_brackets(pattern: str) -> None:
    class_start: int | None = None
    for index, character in enumerate(pattern):
        if class_start is None:
            if character == "[":
                class_start = index
            elif character == "]":
                raise ValueError(f"glob {pattern!r} closes a bracket at position {index} that was never opened")
            elif character == "!":
                raise ValueError(f"glob {pattern!r} has '!' at position {index}; it is only allowed right after '['")
        elif character == "[":
            raise ValueError(f"glob {pattern!r} opens a bracket at position {index} inside another")
        elif character == "!" and index != class_start + 1:
            raise ValueError(f"glob {pattern!r} has '!' at position {index}; it is only allowed right after '['")
        elif character == "]":
            if index - class_start == 1 or pattern[class_start + 1:index] == "!":
                raise ValueError(f"glob {pattern!r} has an empty bracket at position {class_start}")
            class_start = None
    if class_start is not None:
        raise ValueError(f"glob {pattern!r} opens a bracket at position {class_start} that is never closed")


Glob = Annotated[str, AfterValidator(validate_glob)]
GlobList = Annotated[list[Glob], Field(max_length=MAX_PATTERNS)]


class ToolProfile(BaseModel):
    """Stored with an agent. `include` empty means no include filter (as ["*"]), like the seed's
    runtime; to expose no tools, set `max_tools` to 0."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    include: GlobList = Field(default_factory=lambda: ["*"])
    exclude: GlobList = Field(default_factory=list)
    require_verified: bool = False
    max_tools: Annotated[int, Field(ge=0, le=limits.MAX_TOOLS)] | None = None


class Tool(BaseModel):
    """A tool the product exposes; fields other than these are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str
    verified: bool = False


def _matches_any(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def filter_tools(tools: Iterable[Tool], profile: ToolProfile | None) -> list[Tool]:
    """The tools the profile lets through, sorted by name: include → exclude → verified → cap.
    Without a profile, all of them (sorted). Duplicate names are refused: a provider could not
    tell them apart, and which one a profile kept would depend on input order."""
    ordered = sorted(tools, key=lambda tool: tool.name)
    for previous, current in pairwise(ordered):
        if previous.name == current.name:
            raise InvalidInput(f"Tool {current.name!r} is listed twice; tool names must be unique.")
    if profile is None:
        return ordered
    kept = [tool for tool in ordered if not profile.include or _matches_any(tool.name, profile.include)]
    kept = [tool for tool in kept if not _matches_any(tool.name, profile.exclude)]
    if profile.require_verified:
        kept = [tool for tool in kept if tool.verified]
    return kept if profile.max_tools is None else kept[:profile.max_tools]
