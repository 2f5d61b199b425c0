"""Hostile round 12, R07 (docs/security.md, "Hostile round 12"; ADR 0023): tenant A's bound login
against tenant B's, on the real PostgreSQL.

`registry horizon --terminate` (the DBA's cron, round 10's R06 remedy) ended a tenant login's
session past --xid-age transaction ids. That age is the cluster's: A burned ids in short committed
transactions (never holding a snapshot of its own) and made B's seconds-old transaction "old", so
the DBA's cron ended B's session and rolled back its writes at a moment A chose. Now a session past
--xid-age is ended only once its transaction has also been open --xid-min-open (wall-clock, B's
own): B's young transaction is listed as spared and survives; a holder open longer is still ended.
The twin applies the xid rule alone (a42e2fc's) to the same situation and ends B.
"""

from __future__ import annotations

import json
import time

import psycopg
import pytest

from registry import horizon
from tests.helpers import bind_tenant_login
from tests.test_hostile_round10 import BURN, _alive, _close_and_wait, _hold_a_snapshot
from tests.test_hostile_tenant import TENANT_LOGIN, _url, world  # noqa: F401 (world is a fixture)

B_LOGIN = "registry_hostile_b"  # tenant B's own console login, bound to B (globex_console in the report)
XID_AGE = 10_000  # the test's --xid-age: small, so the burn takes a fraction of a second
MIN_OPEN = 4  # the test's --xid-min-open, seconds (the default is 10 minutes)
GROUP = "b-long-import"  # what B's transaction writes, uncommitted while the DBA's cron runs


def _b_login(db, world) -> str:
    db.execute(f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{B_LOGIN}') THEN
            CREATE ROLE {B_LOGIN} LOGIN IN ROLE registry_app;
        END IF; END $$""")
    bind_tenant_login(db, B_LOGIN, world["b"]["tenant"])
    return _url(db, B_LOGIN)


def _b_begins_an_import(url: str, tenant_id: int) -> psycopg.Connection:
    """B's ordinary transaction: REPEATABLE READ (an export's, an import's snapshot) with an uncommitted write."""
    conn = psycopg.connect(url, autocommit=True)
    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
    conn.execute("SELECT set_config('registry.tenant_id', %s, true)", (str(tenant_id),))
    conn.execute("SELECT count(*) FROM agents").fetchone()
    conn.execute("INSERT INTO dataset_groups (tenant_id, name) VALUES (%s, %s)", (tenant_id, GROUP))
    return conn


def _a_burns(url: str, tenant_id: int, project_id: int, ids: int) -> float:
    """A's burn, as the report's burn_xids.sql: DO blocks of rolled-back savepoints over A's own project, each block
    its own short committed transaction, so no session of A's holds a snapshot. Returns the seconds it took."""
    started = time.monotonic()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT set_config('registry.tenant_id', %s, false)", (str(tenant_id),))
        for _ in range(ids // 5000):
            conn.execute(BURN.format(n=5000, project=project_id))
    return time.monotonic() - started


def _bs_group_committed(db) -> int:
    return db.execute("SELECT count(*) FROM dataset_groups WHERE name = %s", (GROUP,)).fetchone()[0]


def _the_attack(db, world) -> tuple[psycopg.Connection, psycopg.Connection, float]:
    """A holds a snapshot of its own (R06's holder) for MIN_OPEN s; then B begins its import, and A burns XID_AGE + 5,000
    ids past it. Returns (A's old holder, B's young transaction, the burn's seconds)."""
    a, b = world["a"], world["b"]
    old = _hold_a_snapshot(_url(db, TENANT_LOGIN), a["tenant"])
    time.sleep(MIN_OPEN + 0.2)
    young = _b_begins_an_import(_b_login(db, world), b["tenant"])
    burned = _a_burns(_url(db, TENANT_LOGIN), a["tenant"], a["project"], XID_AGE + 5000)
    return old, young, burned


def _sessions(report: dict, login: str) -> list[dict]:
    return [s for s in report["sessions"] if s["login"] == login]


def test_r07_horizon_spares_bs_young_transaction_from_as_burn_and_ends_an_old_holder(db, db_url, world, monkeypatch,
                                                                                    capsys):
    from registry.cli import main

    old, young = None, None
    try:
        old, young, burned = _the_attack(db, world)
        monkeypatch.setenv("REGISTRY_DATABASE_URL", db_url)  # the DBA
        limits = ["--xid-age", str(XID_AGE), "--xid-min-open", f"{MIN_OPEN}s"]
        assert main(["horizon", *limits]) == 0  # listed first, as a DBA reads it
        listed = capsys.readouterr().out
        assert (f"Ended with --terminate: a tenant login's session over {XID_AGE:,} transaction ids old (--xid-age) and "
                f"open at least {MIN_OPEN:,} s (--xid-min-open).") in listed
        b_line = [line for line in listed.splitlines() if line.startswith("pid ") and f" {B_LOGIN} " in line]
        assert len(b_line) == 1 and b_line[0].endswith(": spared"), listed
        assert f"over --xid-age {XID_AGE:,}, but open " in b_line[0] and f"under --xid-min-open {MIN_OPEN} s" in b_line[0]

        assert main(["horizon", *limits, "--terminate", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["limits"] == {"xid_age": XID_AGE, "xid_min_open_seconds": MIN_OPEN, "open_for_seconds": None,
                                    "rule": report["limits"]["rule"]}
        assert "only once its transaction has also been open --xid-min-open" in report["limits"]["rule"]
        [b] = _sessions(report, B_LOGIN)
        # The attack reached the limit: B's transaction is past --xid-age through A's burn alone, seconds old.
        assert b["xmin_age"] > XID_AGE and b["tenant_login"] and b["open_seconds"] < MIN_OPEN, (b, burned)
        assert b["over"] == [] and b["terminated"] is None and len(b["spared"]) == 1, b
        # The genuinely old holder (A's own snapshot, open past the minimum, past the limit) is still ended.
        [a] = [s for s in _sessions(report, TENANT_LOGIN) if s["state"] == "idle in transaction"]
        assert a["terminated"] is True and a["open_seconds"] >= MIN_OPEN and a["xmin_age"] > XID_AGE, a
        assert a["over"] == [f"{a['xmin_age']:,} transaction ids old, over --xid-age {XID_AGE:,}, and open "
                             f"{a['open_seconds']:,} s, at least --xid-min-open {MIN_OPEN:,} s"]
        assert not _alive(old)
        print(f"fixed: B's transaction spared at {b['xmin_age']:,} ids, open {b['open_seconds']} s; A's holder ended at "
              f"{a['xmin_age']:,} ids, open {a['open_seconds']} s; A burned {XID_AGE + 5000:,} ids in {burned:.2f} s")

        # B's transaction goes on and commits its write.
        assert young.execute("SELECT count(*) FROM dataset_groups WHERE name = %s", (GROUP,)).fetchone()[0] == 1
        young.execute("COMMIT")
        assert _bs_group_committed(db) == 1
    finally:
        _close_and_wait(db, *(c for c in (old, young) if c is not None))


def _end_by_xid_age_alone(db, xid_age: int) -> list[horizon.Holder]:
    """The rule before round 12 (a42e2fc's Holder.over): a tenant login's session past xid_age is ended, however young."""
    ended = []
    for holder in horizon.holders(db):
        if holder.tenant_login and holder.age > xid_age:
            row = db.execute(horizon._TERMINATE, (holder.pid, holder.backend_start)).fetchone()
            if row and row[0]:
                ended.append(holder)
    return ended


def test_twin_r07_horizon_by_xid_age_alone_ends_bs_young_transaction_and_its_write_is_lost(db, world):
    old, young = None, None
    try:
        old, young, burned = _the_attack(db, world)
        ended = _end_by_xid_age_alone(db, XID_AGE)
        [b] = [h for h in ended if h.login == B_LOGIN]
        assert b.age > XID_AGE and b.open_seconds < MIN_OPEN, (b, burned)  # seconds old, "old" by A's ids
        assert not _alive(young)
        assert _bs_group_committed(db) == 0  # B's uncommitted write rolled back
        print(f"twin: B's transaction ended at {b.age:,} ids, open {b.open_seconds} s; A burned "
              f"{XID_AGE + 5000:,} ids in {burned:.2f} s")
    finally:
        _close_and_wait(db, *(c for c in (old, young) if c is not None and not c.closed))


def test_horizon_refuses_a_minimum_that_would_end_a_session_for_its_id_age_alone(db, db_url, monkeypatch, capsys):
    """No --xid-min-open below 1 s, from the CLI or the library: the old rule cannot be asked for."""
    from registry.cli import main
    from registry.errors import InvalidInput

    monkeypatch.setenv("REGISTRY_DATABASE_URL", db_url)
    for value in ("0s", "0", "0min", "ten minutes"):
        assert main(["horizon", "--xid-min-open", value, "--terminate"]) == 1
        assert "--xid-min-open" in capsys.readouterr().err
    with pytest.raises(InvalidInput, match="never ended for its transaction-id age alone"):
        horizon.Limits(xid_age=1000, xid_min_open=0)
    assert horizon.Limits().xid_min_open == horizon.DEFAULT_XID_MIN_OPEN == 600
