"""`registry project-instructions show|set|clear`: a project's instruction file, stored in the database
(it outranks every AGENTS.md)."""

from __future__ import annotations

import argparse

from registry.errors import InvalidInput

from .options import instruction_options, instructions
from .parsing import action, actions, command
from .session import run


def cmd_show(args: argparse.Namespace) -> None:
    print(run(args, lambda r: r.project_instructions(args.tenant, args.project)))


def cmd_set(args: argparse.Namespace) -> None:
    text = instructions(args)
    if text is None:
        raise InvalidInput("give --instructions-file PATH or --instructions TEXT")
    _store(args, text)


def cmd_clear(args: argparse.Namespace) -> None:
    _store(args, "")


def _store(args: argparse.Namespace, text: str) -> None:
    stored = run(args, lambda r: r.set_project_instructions(args.tenant, args.project, text))
    print(f"Project instruction file of {args.tenant}/{args.project}: "
          + (f"{len(stored)} characters stored." if stored else "removed."))


def _scope(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", required=True, help="project slug or id")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "project-instructions", "a project's instruction file, stored in the database "
                          "(it outranks every AGENTS.md)"))
    _scope(action(sub, "show", cmd_show, "print it"))
    p = action(sub, "set", cmd_set, "store it")
    _scope(p)
    instruction_options(p, "the text")
    _scope(action(sub, "clear", cmd_clear, "remove it"))
