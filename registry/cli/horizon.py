"""`registry horizon`: the sessions holding back vacuum's horizon and, with --terminate, ending the
tenant logins' past the limits (docs/dba.md, "Transaction-id wraparound: watched and ended").
A session past --xid-age is ended only once its transaction has also been open --xid-min-open:
its id age is every writer's doing, another tenant's burn included (hostile round 12, R07).

A command rather than the psql query alone: tenant logins are told from the services by their
roles, the limits are checked before anything runs, and a session is ended by its pid and start
time only. Prepared transactions and replication slots are listed too, with what to do: nothing
here can end them. Meant for cron, every minute: `registry horizon --terminate`.
"""

from __future__ import annotations

import argparse
import json

from registry import db, horizon

from .parsing import command, json_option


def cmd_horizon(args: argparse.Namespace) -> None:
    open_seconds = horizon.parse_duration(args.open_for) if args.open_for is not None else None
    limits = horizon.Limits(args.xid_age, open_seconds, horizon.parse_duration(args.xid_min_open, "--xid-min-open"))
    with db.connect(autocommit=True) as conn:
        verdicts = horizon.check(conn, limits, terminate=args.terminate)
        retained = horizon.retained(conn, limits)
        oldest = horizon.oldest_database_age(conn)
    if args.json:
        print(json.dumps({"cluster_xid_age": oldest, "stop_at": horizon.STOP_AT, "limits": {
            "xid_age": limits.xid_age, "xid_min_open_seconds": limits.xid_min_open, "open_for_seconds": limits.open_seconds,
            "rule": _RULE}, "sessions": [
            {"pid": v.holder.pid, "login": v.holder.login, "database": v.holder.database, "state": v.holder.state,
             "xmin_age": v.holder.xmin_age, "xid_age": v.holder.xid_age, "open_seconds": v.holder.open_seconds,
             "ids_per_second": v.holder.ids_per_second, "tenant_login": v.holder.tenant_login,
             "over": list(v.reasons), "spared": list(v.spared), "terminated": v.terminated}
            for v in verdicts], "retained": [
            {"kind": r.kind, "name": r.name, "login": r.login, "database": r.database, "xmin_age": r.xmin_age,
             "catalog_xmin_age": r.catalog_xmin_age, "open_seconds": r.open_seconds, "active": r.active,
             "over": list(reasons), "remedy": r.remedy}
            for r, reasons in retained]}))
        return
    print(f"Oldest database: age(datfrozenxid) {oldest:,} of {horizon.STOP_AT:,}, where PostgreSQL refuses new "
          "transaction ids.")
    open_for = f" or open over {limits.open_seconds:,} s (--open-for)" if limits.open_seconds is not None else ""
    print(f"Ended with --terminate: a tenant login's session over {limits.xid_age:,} transaction ids old (--xid-age) "
          f"and open at least {limits.xid_min_open:,} s (--xid-min-open){open_for}.")
    if not verdicts:
        print("No session holds a snapshot or a transaction id.")
    if not retained:
        print("No prepared transaction or replication slot holds one.")
    for v in verdicts:
        h = v.holder
        ages = ", ".join(f"{name} age {age:,}" for name, age in (("xmin", h.xmin_age), ("xid", h.xid_age))
                         if age is not None)
        opened = f", open {h.open_seconds:,} s" if h.open_seconds is not None else ""
        who = "tenant login" if h.tenant_login else "not a tenant login: never ended here"
        line = f"pid {h.pid} {h.login} on {h.database} ({h.state}): {ages}{opened}; {who}"
        if v.reasons:
            outcome = {True: "terminated", False: "NOT terminated (it did not end within 5 s)",
                       None: "run with --terminate to end it"}[v.terminated]
            line += f"; {'; '.join(v.reasons)}: {outcome}"
        elif v.spared:
            line += f"; {'; '.join(v.spared)}: spared"
        print(line)
    # Prepared transactions and replication slots: no session to end, so listed with what to do.
    for r, reasons in retained:
        ages = ", ".join(f"{name} age {age:,}" for name, age in (("xmin", r.xmin_age), ("catalog_xmin", r.catalog_xmin_age))
                         if age is not None)
        where = f" on {r.database}" if r.database else ""
        owner = f" by {r.login}" if r.login else ""
        opened = f", prepared {r.open_seconds:,} s ago" if r.open_seconds is not None else ""
        line = f"{r.kind} {r.name!r}{owner}{where}: {ages}{opened}; never ended here"
        if reasons:
            line += f"; {'; '.join(reasons)}: {r.remedy}"
        print(line)


_RULE = ("a tenant login's session is ended past --xid-age only once its transaction has also been open "
         "--xid-min-open (its id age is every writer's doing, another tenant's burn included), or past --open-for "
         "alone; services', staff's, prepared transactions and replication slots are listed, never ended")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "horizon", "as a superuser: list the sessions holding back vacuum's horizon (the oldest "
                "snapshots and transaction ids, prepared transactions, replication slots) and, with --terminate, end tenant "
                "logins' sessions past the limits",
                cmd_horizon)
    p.add_argument("--xid-age", type=int, default=horizon.DEFAULT_XID_AGE, metavar="N",
                   help=f"a tenant login's session past N transaction ids since its snapshot or transaction began, "
                        f"once also open --xid-min-open (default {horizon.DEFAULT_XID_AGE:,})")
    p.add_argument("--xid-min-open", metavar="DURATION", default=f"{horizon.DEFAULT_XID_MIN_OPEN // 60}min",
                   help="how long a session past --xid-age must have been open before it is ended: the age is "
                        "the whole cluster's (another tenant burning ids ages everyone's transactions), its own time "
                        "is not; a younger one is listed as spared, with the cluster's ids a second meanwhile. "
                        "Set it above your longest honest tenant transaction (an import, an export); at least 1s "
                        f"(default {horizon.DEFAULT_XID_MIN_OPEN // 60}min)")
    p.add_argument("--open-for", metavar="DURATION",
                   help="also a tenant login's transaction open longer than this, whatever its id age, e.g. 10min "
                        "or 2h (default: no limit)")
    p.add_argument("--terminate", action="store_true", help="end the tenant logins' sessions past the limits — "
                   "--xid-age and --xid-min-open together, or --open-for — by pid and start time "
                   "(pg_terminate_backend); without it, only list")
    json_option(p, "one JSON object")
