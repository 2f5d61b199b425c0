"""Impact previews, and the question asked before a change that removes or hides something."""

from __future__ import annotations

import argparse
import sys

from registry.errors import InvalidInput
from registry.render import table


def impact_table(rows) -> str:
    def scope(r) -> str:
        return f"tenant {r.tenant_id}" + (f" / project {r.project_id}" if r.project_id else " (tenant-wide)")

    def state(agent_id, layer, slug) -> str:
        if agent_id is None and layer is not None:
            return f"the new agent ({layer})"  # a creation's preview: the row does not exist yet
        if agent_id is None:
            return f"{slug!r}: none" if slug else "none"
        return f"#{agent_id} ({layer})"
    return table(["what", "scope", "before", "after", "orphaned", "conversations"],
                 [(r.kind, scope(r), state(r.before_agent_id, r.before_layer, r.before_slug if r.kind == "default" else None),
                   state(r.after_agent_id, r.after_layer, r.after_slug if r.kind == "default" else None),
                   r.orphaned, r.conversations) for r in rows])


def confirm(args: argparse.Namespace, rows: list) -> None:
    """Show what the change would do (rows: a preview read on the command's own connection), then
    go on only with --yes or a "y" at a terminal."""
    out = sys.stderr if args.json else sys.stdout  # keep --json output parseable
    if not rows:
        print("Impact: no scope's agent, default or pin changes.", file=out)
        return
    print("Impact of this change:", file=out)
    print(impact_table(rows), file=out)
    if args.yes:
        return
    if not sys.stdin.isatty():
        raise InvalidInput("not confirmed: re-run with --yes to make this change")
    if input("Make this change? [y/N] ").strip().lower() not in ("y", "yes"):
        raise InvalidInput("not confirmed: nothing was changed")
