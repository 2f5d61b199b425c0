"""`registry optout add|remove`: hide an inherited agent in a project, or show it again."""

from __future__ import annotations

import argparse
import json

from registry.render import as_json

from .confirm import confirm
from .parsing import action, actions, command, json_option, yes_option
from .session import run, session


def cmd_add(args: argparse.Namespace) -> None:
    with session(args) as registry:
        confirm(args, registry.impact_of_optout(args.tenant, args.project, args.agent, layer=args.layer))
        optout = registry.opt_out(args.tenant, args.project, args.agent, layer=args.layer)
    print(as_json(optout) if args.json else
          f"Project {args.project!r} now hides {optout.layer} agent {optout.slug!r} (#{optout.agent_id}).")


def cmd_remove(args: argparse.Namespace) -> None:
    removed = run(args, lambda r: r.opt_in(args.tenant, args.project, args.agent, layer=args.layer))
    print(json.dumps({"removed": removed}) if args.json else
          f"Removed {removed} opt-out(s) of {args.agent!r} in project {args.project!r}.")


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", required=True, help="project slug or id")
    p.add_argument("--agent", required=True, help="the inherited agent's slug")
    p.add_argument("--layer", choices=["official", "tenant"],
                   help="which inherited row (default: the tenant's when it has one, else the official)")
    json_option(p)


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "optout", "hide an inherited agent in a project, or show it again"))
    p = action(sub, "add", cmd_add, "hide it (shows the impact and asks first)")
    _options(p)
    yes_option(p, "opt out without asking")
    _options(action(sub, "remove", cmd_remove, "show it again"))
