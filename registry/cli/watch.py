"""`registry watch`: changes to agents, opt-outs and defaults, printed as they are committed."""

from __future__ import annotations

import argparse
import sys

from registry import db

from .parsing import command, json_option


def cmd_watch(args: argparse.Namespace) -> None:
    from registry.watch import excerpt, watch_changes

    def warn(payload: str, reason: str) -> None:
        # stderr only: --json output stays one valid object per line on stdout.
        print(f"registry watch: ignored a notification that is not the registry's ({reason}): {excerpt(payload)}",
              file=sys.stderr, flush=True)

    # The primary, directly: REGISTRY_LISTEN_URL, refused behind a pooler without it (registry.db).
    url = db.listen_url()
    print("Watching registry_changes (Ctrl-C to stop)…", file=sys.stderr, flush=True)
    for change in watch_changes(url, on_ignored=warn):
        if args.json:
            print(change.model_dump_json(), flush=True)
        elif change.disconnected:
            print("(disconnected from the primary: retrying)", flush=True)
        elif change.reconnected:
            print("(reconnected: changes made meanwhile were not seen)", flush=True)
        else:
            where = f"tenant {change.tenant_id}" if change.tenant_id else "official"
            if change.project_id:
                where += f" / project {change.project_id}"
            version = f" v{change.version}" if change.version else ""
            print(f"{change.operation:<6} {change.table:<14} {where:<28} {change.slug or ''}{version}", flush=True)


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "watch", "print changes to agents, opt-outs and defaults as they are committed", cmd_watch)
    json_option(p, "one JSON object per line")
