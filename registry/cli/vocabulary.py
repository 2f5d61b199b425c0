"""`registry groups|terms add|remove|list`: the dataset groups and glossary terms a scope has.

A tenant's names hold in all its projects; `--project` adds names to one project only (it never
removes the tenant's). Agents whose `requires` names something a scope lacks are reported
unavailable there (docs/design.md, "Resolution rules", rule 7).
"""

from __future__ import annotations

import argparse
import json

from registry.render import as_json, table

from .parsing import action, actions, command, json_option
from .session import run

WORDS = {"group": ("dataset group", "dataset groups"), "term": ("glossary term", "glossary terms")}


def _where(args: argparse.Namespace) -> str:
    return f"{args.tenant}/{args.project}" if args.project else f"{args.tenant} (tenant-wide)"


def cmd_add(args: argparse.Namespace) -> None:
    added = run(args, lambda r: r.add_names(args.kind, args.names, args.tenant, args.project))
    if args.json:
        print(json.dumps({"added": added}, ensure_ascii=False))
        return
    already = len(args.names) - len(added)
    print(f"Added {len(added)} {WORDS[args.kind][1]} to {_where(args)}"
          + (f" ({already} already there)." if already else "."))


def cmd_remove(args: argparse.Namespace) -> None:
    removed = run(args, lambda r: r.remove_names(args.kind, args.names, args.tenant, args.project))
    print(json.dumps({"removed": removed}, ensure_ascii=False) if args.json else
          f"Removed {len(removed)} {WORDS[args.kind][1]} from {_where(args)}.")


def cmd_list(args: argparse.Namespace) -> None:
    names = run(args, lambda r: r.names(args.kind, args.tenant, args.project))
    if args.json:
        print(as_json(names))
    elif not names:
        print(f"{_where(args)} has no {WORDS[args.kind][1]}.")
    else:
        print(table([WORDS[args.kind][0], "layer"], [(n.name, n.layer) for n in names]))


def _scope(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", help="project slug or id (its own additions; default: the tenant's)")
    json_option(p)


def _register(commands: argparse._SubParsersAction, name: str, kind: str) -> None:
    one, many = WORDS[kind]
    group = command(commands, name, f"the {many} a tenant or project has (what agents' requires name)")
    group.set_defaults(kind=kind)
    sub = actions(group)
    p = action(sub, "add", cmd_add, f"give the scope {many} (names already there are left alone)")
    p.add_argument("names", metavar="NAME", nargs="+", help=f"a {one}, as agents' requires name it")
    _scope(p)
    p = action(sub, "remove", cmd_remove, f"take {many} from that layer (all or none)")
    p.add_argument("names", metavar="NAME", nargs="+", help=f"a {one} (matched ignoring case)")
    _scope(p)
    _scope(action(sub, "list", cmd_list, f"the {many} of the scope: the tenant's, then the project's"))


def register(commands: argparse._SubParsersAction) -> None:
    _register(commands, "groups", "group")
    _register(commands, "terms", "term")
