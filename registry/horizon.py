"""The sessions that hold back vacuum's horizon, and ending a tenant login's past a limit
(docs/dba.md, "Transaction-id wraparound: watched and ended"; hostile-tenant round 10, R06).

A tenant login that lifts its own idle_in_transaction_session_timeout and holds a snapshot keeps
VACUUM from freezing anything newer, while any login that may write burns transaction ids; at
2^31 - 3,000,000 PostgreSQL refuses every transaction that needs one. PostgreSQL 15 has no
per-login bound on either, so this is a watch, not a limit: run `registry horizon --terminate`
every minute (cron), and a held snapshot lives at most the limit plus that minute.

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
_DURATION = re.compile(r"^([1-9][0-9]{0,8})(s|min|h)$")
_SECONDS = {"s": 1, "min": 60, "h": 3600}
_TERMINATE = """SELECT pg_terminate_backend(a.pid, 5000) FROM pg_stat_activity a
                 WHERE a.pid = %s AND a.backend_start = %s"""


def parse_duration(text: str) -> int:
    """'90s', '10min', '2h' as seconds."""
    match = _DURATION.match(text)
    if match is None:
        raise InvalidInput(f"--open-for {text!r}: give a duration such as 90s, 10min or 2h")
    return int(match[1]) * _SECONDS[match[2]]


@dataclass(frozen=True)
class Limits:
    xid_age: int = DEFAULT_XID_AGE  # transaction ids since the session's snapshot or transaction began
    open_seconds: int | None = None  # how long its transaction has been open

    def __post_init__(self) -> None:
        if not 1 <= self.xid_age < STOP_AT:
            raise InvalidInput(f"--xid-age {self.xid_age}: give a number of transaction ids from 1 to {STOP_AT - 1:,} "
                               "(PostgreSQL refuses new ones at 2^31 - 3,000,000)")


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

    def over(self, limits: Limits) -> list[str]:
        """Which limits it is past (empty: none)."""
        reasons = []
        age = max(a for a in (self.xmin_age, self.xid_age, 0) if a is not None)
        if age > limits.xid_age:
            reasons.append(f"{age:,} transaction ids old, over --xid-age {limits.xid_age:,}")
        if limits.open_seconds is not None and self.open_seconds is not None and self.open_seconds > limits.open_seconds:
            reasons.append(f"open {self.open_seconds:,} s, over --open-for {limits.open_seconds:,} s")
        return reasons


@dataclass(frozen=True)
class Verdict:
    holder: Holder
    reasons: tuple[str, ...]  # past these limits (a tenant login's only: nothing else is ended)
    terminated: bool | None  # None: not asked to terminate, or within the limits


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
        ended = None
        if terminate and reasons:
            row = conn.execute(_TERMINATE, (holder.pid, holder.backend_start)).fetchone()
            ended = bool(row and row[0])
        verdicts.append(Verdict(holder, reasons, ended))
    return verdicts
