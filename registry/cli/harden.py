"""`registry harden`: the superuser's hardening against tenants' own logins (docs/dba.md).

A command rather than a psql script alone: login names must be quoted as identifiers and the
limits checked before anything runs, and what holds afterwards is read back and printed. --sql
prints the same statements as a script (no database), like `registry migrate --sql`.
"""

from __future__ import annotations

import argparse

from registry import db, hardening

from .parsing import command


def cmd_harden(args: argparse.Namespace) -> None:
    limits = hardening.LoginLimits(args.connection_limit, args.temp_file_limit)
    logins = list(dict.fromkeys(args.login or []))
    if args.sql:
        print(hardening.script(logins, limits), end="")
        return
    with db.connect() as conn:
        states = hardening.harden(conn, logins, limits)
        database = conn.info.dbname
    print(f"Database {database}: advisory-lock, large-object, logical-message, WAL-position, transaction-id and "
          "multixact-member functions revoked from PUBLIC (WAL positions kept for registry_service and staff); "
          "planner statistics on customer text cleared.")
    for state in states:
        locks = "refused" if state.advisory_lockers == 0 else f"{state.advisory_lockers} function(s) still granted to it"
        meters = "refused" if state.wal_meters == 0 else f"{state.wal_meters} function(s) still granted to it"
        members = "refused" if state.multixact_readers == 0 else "still granted to it"
        print(f"{state.name}: connection limit {state.connection_limit}, temp_file_limit {state.temp_file_limit}, "
              f"advisory locks here {locks}, WAL positions here {meters}, multixact members here {members}, "
              f"log_min_messages {state.log_min_messages or 'not set'}")
        if state.other_databases:
            shown = ", ".join(state.other_databases[:5]) + (" …" if len(state.other_databases) > 5 else "")
            print(f"  warning: {state.name} may also connect to {len(state.other_databases)} other database(s) "
                  f"({shown}), where the lock table is the same: run registry harden there too, or REVOKE "
                  "CONNECT on them from PUBLIC")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "harden", "as a superuser: revoke advisory locks, large objects, WAL messages, WAL "
                "positions, transaction ids and multixact members from PUBLIC in the database, clear planner statistics on customer text, and give tenant logins a "
                "connection limit, a temp_file_limit and no server-log output", cmd_harden)
    p.add_argument("--login", action="append", metavar="NAME", help="a tenant's login to limit (repeatable); "
                   "without it, only the database is hardened")
    p.add_argument("--connection-limit", type=int, default=5, metavar="N",
                   help="connections each login may hold at once (default 5)")
    p.add_argument("--temp-file-limit", default="1GB", metavar="SIZE",
                   help="temporary files each of its sessions may write, e.g. 500MB (default 1GB)")
    p.add_argument("--sql", action="store_true", help="print the SQL script instead of running it (no database)")
