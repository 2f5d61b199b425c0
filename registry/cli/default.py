"""`registry default show|set|clear`: a scope's effective default agent, or one layer's setting."""

from __future__ import annotations

import argparse
import sys

from registry.render import as_json, describe_default

from .confirm import confirm
from .parsing import action, actions, command, json_option, yes_option
from .session import run, session


def cmd_show(args: argparse.Namespace) -> None:
    default = run(args, lambda r: r.default(args.tenant, args.project))
    print(as_json(default) if args.json else describe_default(default))


def cmd_set(args: argparse.Namespace) -> None:
    _change(args, args.value)


def cmd_clear(args: argparse.Namespace) -> None:
    _change(args, None)


def _change(args: argparse.Namespace, value: str | None) -> None:
    """value: a slug, '' for explicitly none, None to inherit again. Previewed and asked first."""
    with session(args) as registry:
        impact = registry.impact_of_default(value, tenant=args.tenant, project=args.project)
        confirm(args, impact)
        layer = registry.set_default(value, tenant=args.tenant, project=args.project)
    said = {None: "inherits from the layer above", "": "explicitly has no default"}.get(value, f"defaults to {value!r}")
    print(as_json(layer) if args.json else f"The {layer.layer} layer now {said}.")
    orphaned = [row for row in impact if row.orphaned]
    if orphaned:
        # Stored, never refused (an orphaned default is reported, docs/design.md): said on stderr.
        print(f"registry: warning: {value!r} resolves to no agent in {len(orphaned)} scope(s): their "
              "conversations that follow the default run without one", file=sys.stderr)


def _hint(word: str) -> str:
    # `registry default --tenant T` once meant show; argparse now reads T as the action.
    return (f"no action '{word}': registry default show --tenant T [--project P], set SLUG [--tenant T] "
            "or clear [--tenant T]")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "default", "show a scope's effective default agent, or set/clear a layer's "
                          "default"), hint=_hint)

    p = action(sub, "show", cmd_show, "the effective default agent of a scope, its source layer, orphaned or not")
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", help="project slug or id")
    json_option(p)

    p = action(sub, "set", cmd_set, "set a layer's default agent (shows the impact and asks first)")
    p.add_argument("value", metavar="SLUG", help="the default agent's slug, or '' for explicitly none")
    _layer_options(p)

    _layer_options(action(sub, "clear", cmd_clear, "clear a layer's default: back to inheriting (shows the "
                          "impact and asks first)"))


def _layer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tenant", help="tenant slug or id (omit for the official layer)")
    p.add_argument("--project", help="project slug or id")
    json_option(p)
    yes_option(p)
