"""`registry explain`: why a slug resolves as it does in a scope, or what a conversation runs with
and why — each layer's row with its verdict, and the default chain, in words an admin understands."""

from __future__ import annotations

import argparse

from registry.errors import InvalidInput
from registry.explain import default_reason, row_reason, summary
from registry.refs import ascii_int
from registry.render import as_json, describe_conversation, table

from .parsing import command, json_option
from .session import run


def cmd_explain(args: argparse.Namespace) -> None:
    if args.conversation is not None:
        if args.tenant or args.project or args.slug:
            raise InvalidInput("explain takes either --conversation ID or --tenant T [--project P] SLUG, not both")
        explanation = run(args, lambda r: r.explain_conversation(args.conversation))
    else:
        if not args.tenant or not args.slug:
            raise InvalidInput("explain needs --tenant T [--project P] SLUG, or --conversation ID")
        explanation = run(args, lambda r: r.explain(args.tenant, args.project, args.slug))
    if args.json:
        print(as_json(explanation))
        return
    if explanation.conversation is not None:
        print(describe_conversation(explanation.conversation))
    print(summary(explanation))
    if explanation.rows:
        print()
        print(table(["layer", "agent", "status", "enabled", "version", "opted out", "available", "verdict", "why"],
                    [(r.layer, f"#{r.agent_id}", r.status, r.enabled, r.version, r.opted_out, r.available,
                      r.verdict, row_reason(r, explanation.rows)) for r in explanation.rows]))
    print()
    print("Default agent of this scope, layer by layer:")
    print(table(["layer", "default_agent", "decides", "why"],
                [(d.layer, d.default_agent, d.decides, default_reason(d)) for d in explanation.default_chain]))


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "explain", "why a slug resolves as it does in a scope (each layer's row and verdict, "
                "and the default chain), or a conversation's agent", cmd_explain)
    p.add_argument("slug", metavar="SLUG", nargs="?", help="the agent slug to explain")
    p.add_argument("--tenant", help="tenant slug or id")
    p.add_argument("--project", help="project slug or id (default: tenant-wide)")
    p.add_argument("--conversation", type=ascii_int, help="explain the agent this conversation runs with instead")
    json_option(p)
