"""The sessions that hold back vacuum's horizon, and ending a tenant login's past a limit
(docs/dba.md, "Transaction-id wraparound: watched and ended"; hostile-tenant rounds 10, R06, and
12, R07; ADR 0023).

A tenant login that lifts its own idle_in_transaction_session_timeout and holds a snapshot keeps
VACUUM from freezing anything newer, while any login that may write burns transaction ids; at
2^31 - 3,000,000 PostgreSQL refuses every transaction that needs one. PostgreSQL 15 has no
per-login bound on either, so this is a watch, not a limit: run `registry horizon --terminate`
every minute (cron), and a held snapshot lives at most the limits plus that minute.

A session's transaction-id age is not its own doing: every writer in the cluster drives it, and a
tenant that burns ids in short committed transactions (50,000 a second, round 12) makes another
tenant's seconds-old transaction as "old" as it likes. So a session is never ended for its id age
alone: past --xid-age, it is ended only once its transaction has also been open --xid-min-open
(wall-clock, which no other session moves; default 10 minutes). Younger, it is listed as spared,
with the cluster's id rate over its life (a rate far above the usual one says someone is burning).
--open-for, a wall-clock limit alone, ends a session whatever its id age.

Prepared transactions and replication slots hold the horizon back too, with no session to end:
they are listed (sql/ops/xid_horizon_retained.sql), marked past the same --xid-age, and never
ended here — each says what the DBA does instead.

sql/ops/xid_horizon.sql is the query, literal, as a DBA runs it in psql. The termination is the
superuser's administrative statement, not the application's (docs/dba.md lists what stays in
Python): it ends the listed session only, by its pid and start time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

import psycopg

from registry.errors import ConfigurationError, InvalidInput
from registry.paths import SQL_DIR

HORIZON_FILE = SQL_DIR / "ops" / "xid_horizon.sql"
RETAINED_FILE = SQL_DIR / "ops" / "xid_horizon_retained.sql"
# PostgreSQL stops assigning transaction ids at 2^31 - 3,000,000 (its xidStopLimit).
STOP_AT = 2**31 - 3_000_000
# A quarter of autovacuum_freeze_max_age's default (200,000,000): far below anti-wraparound
# vacuums, far above what a console's honest transaction sees (days of ordinary traffic).
DEFAULT_XID_AGE = 50_000_000
# A session past --xid-age is ended only once its transaction has been open this long too: longer
# than a console's honest transactions (an import, an export, a report), short against the way to
# STOP_AT (at round 10's 5 x 51,000 ids a second, 10 minutes are 153,000,000 ids, 7 % of it).
DEFAULT_XID_MIN_OPEN = 600
_DURATION = re.compile(r"^([1-9][0-9]{0,8})(s|min|h)$")
_SECONDS = {"s": 1, "min": 60, "h": 3600}
_TERMINATE = """SELECT pg_terminate_backend(a.pid, 5000) FROM pg_stat_activity a
                 WHERE a.pid = %s AND a.backend_start = %s"""


def parse_duration(text: str, option: str = "--open-for") -> int:
    """'90s', '10min', '2h' as seconds (at least 1: no zero, no negative)."""
    match = _DURATION.match(text)
    if match is None:
        raise InvalidInput(f"{option} {text!r}: give a duration such as 90s, 10min or 2h")
    return int(match[1]) * _SECONDS[match[2]]


@dataclass(frozen=True)
class Limits:
    xid_age: int = DEFAULT_XID_AGE  # transaction ids since the session's snapshot or transaction began
    open_seconds: int | None = None  # how long its transaction has been open: ends it on its own
    # and how long it must have been open before its xid age may end it (never the age alone)
    xid_min_open: int = DEFAULT_XID_MIN_OPEN

    def __post_init__(self) -> None:
        if not 1 <= self.xid_age < STOP_AT:
            raise InvalidInput(f"--xid-age {self.xid_age}: give a number of transaction ids from 1 to {STOP_AT - 1:,} "
                               "(PostgreSQL refuses new ones at 2^31 - 3,000,000)")
        if self.xid_min_open < 1:
            raise InvalidInput(f"--xid-min-open {self.xid_min_open} s: at least 1 s — a session is never ended for "
                               "its transaction-id age alone, which other sessions drive")


@dataclass(frozen=True)
class Holder:
    """A session with a snapshot or a transaction id, as sql/ops/xid_horizon.sql reads it."""

    pid: int
    login: str
    database: str | None
    state: str | None
    backend_start: datetime
    xmin_age: int | None
    xid_age: int | None
    open_seconds: int | None  # None where the caller may not see another login's xact_start
    tenant_login: bool
    cluster_xid_age: int

    @property
    def age(self) -> int:
        """Transaction ids since its snapshot or transaction began: the whole cluster's, not its own."""
        return max(a for a in (self.xmin_age, self.xid_age, 0) if a is not None)

    @property
    def ids_per_second(self) -> int | None:
        """The cluster's transaction-id rate over its transaction's life (None: open under a second)."""
        return self.age // self.open_seconds if self.open_seconds else None

    def over(self, limits: Limits) -> list[str]:
        """The limits it is past that end it (empty: none). Its id age counts only together with
        --xid-min-open: another session's burn ages it, only its own time keeps it open."""
        reasons = []
        if self.age > limits.xid_age and self.open_seconds is not None and self.open_seconds >= limits.xid_min_open:
            reasons.append(f"{self.age:,} transaction ids old, over --xid-age {limits.xid_age:,}, and open "
                           f"{self.open_seconds:,} s, at least --xid-min-open {limits.xid_min_open:,} s")
        if limits.open_seconds is not None and self.open_seconds is not None and self.open_seconds > limits.open_seconds:
            reasons.append(f"open {self.open_seconds:,} s, over --open-for {limits.open_seconds:,} s")
        return reasons

    def spared(self, limits: Limits) -> list[str]:
        """Past --xid-age but open under --xid-min-open, and past no other limit: not ended, and why
        (its age may be another tenant's doing; R07 of hostile round 12)."""
        if self.age <= limits.xid_age or self.over(limits):
            return []
        opened = f"open {self.open_seconds:,} s" if self.open_seconds is not None else "open for an unknown time"
        rate = f"; {self.ids_per_second:,} ids a second in the cluster meanwhile" if self.ids_per_second else ""
        return [f"{self.age:,} transaction ids old, over --xid-age {limits.xid_age:,}, but {opened}, under "
                f"--xid-min-open {limits.xid_min_open:,} s: not ended for its id age alone, which every writer "
                f"drives{rate}"]


@dataclass(frozen=True)
class Verdict:
    holder: Holder
    reasons: tuple[str, ...]  # past these limits (a tenant login's only: nothing else is ended)
    terminated: bool | None  # None: not asked to terminate, or within the limits
    spared: tuple[str, ...] = ()  # past --xid-age only, too young to end for it (a tenant login's)


@dataclass(frozen=True)
class Retained:
    """A prepared transaction or a replication slot holding the horizon, as
    sql/ops/xid_horizon_retained.sql reads it: no session to end, the DBA's to resolve."""

    kind: str  # 'prepared transaction' or 'replication slot'
    name: str  # its gid, or the slot's name
    login: str | None  # a prepared transaction's owner
    database: str | None  # None: a physical slot (the whole cluster)
    xmin_age: int | None  # the prepared transaction's id, or the slot's xmin (its standby's feedback)
    catalog_xmin_age: int | None  # a logical slot's catalog_xmin
    open_seconds: int | None  # since PREPARE TRANSACTION
    active: bool | None  # a slot with a consumer connected now

    @property
    def age(self) -> int:
        return max(a for a in (self.xmin_age, self.catalog_xmin_age, 0) if a is not None)

    def over(self, limits: Limits) -> list[str]:
        reasons = [f"{self.age:,} transaction ids old, over --xid-age {limits.xid_age:,}"] if self.age > limits.xid_age else []
        if limits.open_seconds is not None and self.open_seconds is not None and self.open_seconds > limits.open_seconds:
            reasons.append(f"prepared {self.open_seconds:,} s ago, over --open-for {limits.open_seconds:,} s")
        return reasons

    @property
    def remedy(self) -> str:
        """What the DBA does: nothing here can end it."""
        if self.kind == "prepared transaction":
            return (f"COMMIT PREPARED or ROLLBACK PREPARED {self.name!r}, connected to {self.database}, once the "
                    "transaction manager that prepared it is known to be gone (keep max_prepared_transactions = 0 "
                    "unless something uses two-phase commit)")
        consumer = "its consumer is connected but behind" if self.active else "nothing consumes it"
        return (f"{consumer}: bring its standby or decoder up to date, or drop the slot once it is abandoned "
                f"(SELECT pg_drop_replication_slot({self.name!r}), with no consumer connected)")


def retained(conn: psycopg.Connection, limits: Limits) -> list[tuple[Retained, tuple[str, ...]]]:
    """The prepared transactions and replication slots holding the horizon, each with the limits it
    is past (never ended: pg_terminate_backend has no session to end)."""
    with conn.cursor() as cur:
        cur.execute(RETAINED_FILE.read_text(encoding="utf-8"))
        found = [Retained(*row) for row in cur.fetchall()]
    return [(r, tuple(r.over(limits))) for r in found]


def oldest_database_age(conn: psycopg.Connection) -> int:
    """The largest age(datfrozenxid) of the cluster's databases: how far the oldest is on its way to STOP_AT."""
    return conn.execute("SELECT max(age(datfrozenxid)) FROM pg_database").fetchone()[0]


def holders(conn: psycopg.Connection) -> list[Holder]:
    with conn.cursor() as cur:
        cur.execute(HORIZON_FILE.read_text(encoding="utf-8"))
        return [Holder(*row) for row in cur.fetchall()]


def check(conn: psycopg.Connection, limits: Limits, terminate: bool = False) -> list[Verdict]:
    """Every session holding the horizon, the tenant logins' past the limits marked, and with
    `terminate` ended. Refuses a caller that could not see or end them."""
    may_read, may_signal = conn.execute(
        "SELECT (rolsuper OR pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER')) "
        "       AND has_function_privilege('pg_get_replication_slots()', 'EXECUTE'), "
        "rolsuper OR pg_has_role(current_user, 'pg_signal_backend', 'MEMBER') "
        "FROM pg_roles WHERE rolname = current_user").fetchone()
    if not may_read or (terminate and not may_signal):
        raise ConfigurationError(
            f"registry horizon must run as a superuser, or a member of pg_read_all_stats (to see other logins' "
            f"transactions; of pg_monitor once registry harden ran, for the replication slots)"
            f"{' and pg_signal_backend (to end them)' if terminate else ''}: connected as {conn.info.user}")
    verdicts = []
    for holder in holders(conn):
        reasons = tuple(holder.over(limits)) if holder.tenant_login else ()
        spared = tuple(holder.spared(limits)) if holder.tenant_login else ()
        ended = None
        if terminate and reasons:
            row = conn.execute(_TERMINATE, (holder.pid, holder.backend_start)).fetchone()
            ended = bool(row and row[0])
        verdicts.append(Verdict(holder, reasons, ended, spared))
    return verdicts
