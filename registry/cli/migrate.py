"""`registry migrate`: upgrade, or with --downgrade go down, saying what happened (docs/dba.md).

The database's revision is read before and after, never assumed. --sql prints the script and needs
no database.
"""

from __future__ import annotations

import argparse
import sys

from registry import db, migrate
from registry.errors import InvalidInput

from .parsing import command, yes_option


def cmd_migrate(args: argparse.Namespace) -> None:
    if args.sql:
        if args.downgrade:
            print(migrate.offline_downgrade_script(args.revision), end="")
        else:
            print(migrate.offline_script(args.revision), end="")
        return
    url = db.database_url()
    plan = migrate.plan(url, args.revision)
    before, target = plan.before or "base", plan.target or "base"
    if plan.direction == "downgrade" and not args.downgrade:
        raise migrate.MigrationRefused(
            f"the database is at {before}; {target} is below it: going there is a downgrade, which drops what "
            f"later revisions added. Nothing was changed; re-run with --downgrade to see what it drops and confirm")
    if plan.direction == "upgrade" and args.downgrade:
        raise migrate.MigrationRefused(f"--downgrade: the database is at {before}; {target} is above it. "
                                       "Nothing was changed; run without --downgrade to upgrade")
    if plan.direction == "none":
        if args.downgrade:
            print(f"Database already at {before}; nothing to downgrade.")
            return
        migrate.upgrade(url, plan.target or "base")  # re-creates the replaceable objects
        print(f"Database already at {before}; no revision to apply (views, functions and triggers re-applied).")
        return
    if plan.direction == "upgrade":
        _, after = migrate.upgrade(url, plan.target or "base")
        print(f"Database migrated from {before} to {after or 'base'}.")
        return
    _confirm_downgrade(args, plan)
    _, after = migrate.downgrade(url, plan.target or "base")
    print(f"Database downgraded from {before} to {after or 'base'}.")


def _confirm_downgrade(args: argparse.Namespace, plan: migrate.MigrationPlan) -> None:
    """Name what the downgrade drops, with row counts; go on only with --yes or a "y" at a terminal."""
    where = f"from {plan.before or 'base'} to {plan.target or 'base'}"
    if not plan.drops:
        print(f"Downgrade {where}: no table or column is dropped.")
    else:
        print(f"Downgrade {where} drops:")
        for dropped in plan.drops:
            print(f"  {dropped.describe()}  (revision {dropped.revision})")
    if not plan.loses_data or args.yes:
        return
    if not sys.stdin.isatty():
        raise InvalidInput("not confirmed: nothing was changed; re-run with --yes to drop this data "
                           "(take a pg_dump first)")
    try:
        answer = input("Drop this data? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise InvalidInput("not confirmed: nothing was changed")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "migrate", "upgrade the database schema (Alembic); --downgrade to go down", cmd_migrate)
    p.add_argument("--revision", default="head", help="target revision: head (the default), base, an id such as "
                   "0003, or a step such as -1")
    p.add_argument("--downgrade", action="store_true", help="go down to --revision (required for a revision "
                   "below the database's): lists the tables and columns it drops with their row counts and asks")
    yes_option(p, "with --downgrade: drop the data without asking")
    p.add_argument("--sql", action="store_true", help="print the SQL script instead of running it (no database); "
                   "with --downgrade, the script from head down to --revision")
