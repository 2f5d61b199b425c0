"""`registry impact delete|disable|unpublish|optout|default`: what a change would do, without making it.

Each kind of change is its own subcommand, so argparse (not a hand check) says what each one needs.
"""

from __future__ import annotations

import argparse

from registry.render import as_json

from .confirm import impact_table
from .options import agent_ref
from .parsing import action, actions, command, json_option
from .session import run


def cmd_removal(args: argparse.Namespace) -> None:
    _print(args, run(args, lambda r: r.impact_of_removal(agent_ref(args))))


def cmd_optout(args: argparse.Namespace) -> None:
    _print(args, run(args, lambda r: r.impact_of_optout(args.tenant, args.project, args.agent, layer=args.layer)))


def cmd_default(args: argparse.Namespace) -> None:
    value = None if args.clear else args.agent
    _print(args, run(args, lambda r: r.impact_of_default(value, tenant=args.tenant, project=args.project)))


def _print(args: argparse.Namespace, rows) -> None:
    if args.json:
        print(as_json(rows))
    elif rows:
        print(impact_table(rows))
    else:
        print("No scope's agent, default or pin would change.")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "impact", "what a change would do, without making it"))

    for change in ("delete", "disable", "unpublish"):
        p = action(sub, change, cmd_removal, f"what {change} AGENT would change")
        p.add_argument("agent", help="the agent's slug (with --tenant/--project for its layer) or id")
        p.add_argument("--tenant", help="tenant slug or id (the agent's layer)")
        p.add_argument("--project", help="project slug or id (the agent's layer)")
        json_option(p)

    p = action(sub, "optout", cmd_optout, "what hiding an inherited agent in a project would change")
    p.add_argument("agent", metavar="SLUG", help="the inherited agent's slug")
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", required=True, help="project slug or id")
    p.add_argument("--layer", choices=["official", "tenant"], help="which inherited row")
    json_option(p)

    p = action(sub, "default", cmd_default, "what a layer's new default (or --clear) would change")
    new = p.add_mutually_exclusive_group(required=True)
    new.add_argument("agent", metavar="SLUG", nargs="?", help="the new default's slug ('' = explicitly none)")
    new.add_argument("--clear", action="store_true", help="back to inheriting (NULL)")
    p.add_argument("--tenant", help="tenant slug or id (omit for the official layer)")
    p.add_argument("--project", help="project slug or id")
    json_option(p)
