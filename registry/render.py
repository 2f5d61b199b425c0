"""Printing results for people (aligned tables) and for programs (JSON)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TextIO

from pydantic import BaseModel

from registry.explain import missing_words


def as_json(value: BaseModel | Sequence[BaseModel]) -> str:
    if isinstance(value, BaseModel):
        return json.dumps(value.model_dump(mode="json"), ensure_ascii=False, indent=2)
    return json.dumps([v.model_dump(mode="json") for v in value], ensure_ascii=False, indent=2)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if value == "":
        return "''"
    if isinstance(value, bool):
        return "yes" if value else "no"
    # One row, one line: a name written in SQL with line breaks must not forge rows of its own.
    return str(value).replace("\r", "\\r").replace("\n", "\\n")


def describe_default(default) -> str:
    if default.source_layer is None:
        return "Default agent: none (no layer sets one)"
    if default.default_agent == "":
        return f"Default agent: none (set to '' by the {default.source_layer} layer)"
    state = f"agent #{default.agent_id}" if not default.orphaned else "ORPHANED: resolves to no agent here"
    return f"Default agent: {default.default_agent} (set by the {default.source_layer} layer; {state})"


def describe_conversation(c) -> str:
    follows = {
        "pinned": f"pinned to {c.slug}",
        "none": "explicitly without an agent",
        "default": f"follows the default ({c.slug or 'none'})",
    }[c.mode]
    if c.orphaned:
        outcome = f"ORPHANED: {c.slug!r} resolves to no agent here, so it runs without one"
    elif c.unavailable:
        outcome = (f"UNAVAILABLE: {c.slug!r} needs {missing_words(c.missing)}, which this scope lacks, "
                   "so it runs without an agent")
    elif c.agent_id is None:
        outcome = "runs without an agent"
    else:
        outcome = f"runs with agent #{c.agent_id}"
        if c.current_version is not None:
            outcome += f" ({c.layer} layer, v{c.current_version})"
        if c.version_drift:
            outcome += f"; adopted v{c.adopted_version}, now v{c.current_version}"
        elif c.adopted_version is not None:
            outcome += f"; adopted at v{c.adopted_version}"
    return f"Conversation {c.conversation_id}: {follows}; {outcome}"


# What a terminal would act on instead of showing: C0/C1 controls (escape sequences can retitle
# the window, clear the screen or hide text) and the bidi and invisible formatting characters
# (U+202E turns a line around). A row written in SQL can hold any of them; the CLI prints them
# escaped. Newline and tab stay; so does U+200D, which joins emoji.
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200c\u200e\u200f\u2028\u2029"
                              "\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff\U000e0000-\U000e007f]")


def escape_terminal(text: str) -> str:
    return _TERMINAL_UNSAFE.sub(lambda m: ascii(m.group(0))[1:-1], text)


class TerminalSafe:
    """A text stream that writes every control and bidi character escaped (\\x1b, \\u202e)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(escape_terminal(text))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
