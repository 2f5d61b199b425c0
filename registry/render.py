"""Printing results for people (aligned tables) and for programs (JSON)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel


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
    return str(value)


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
    elif c.agent_id is None:
        outcome = "runs without an agent"
    else:
        outcome = f"runs with agent #{c.agent_id}"
    return f"Conversation {c.conversation_id}: {follows}; {outcome}"
