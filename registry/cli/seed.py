"""`registry seed`: the official agents and the demo data, loaded idempotently."""

from __future__ import annotations

import argparse

from registry import db
from registry.seeding import load_seeds

from .parsing import command


def cmd_seed(args: argparse.Namespace) -> None:
    with db.connect() as conn:
        report = load_seeds(conn, demo=not args.no_demo)
    details = ", ".join(f"{n} {kind}" for kind, n in report.changed.items() if n) or "nothing changed"
    print(f"Seeds loaded: {details}.")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "seed", "load the official agents and the demo data (idempotent)", cmd_seed)
    p.add_argument("--no-demo", action="store_true", help="official agents only")
