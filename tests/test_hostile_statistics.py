"""A hostile tenant reading another tenant's text through the planner's statistics (hostile-tenant
round 6, #1; docs/security.md).

Row-level security hides B's rows from A, but ANALYZE samples every tenant's rows into each
column's histogram and most-common values, and the planner consults them through leakproof
operators (text_lt) whatever the policy: the row estimate a plain EXPLAIN prints for `slug < $1`
moves as $1 passes B's slugs, so a search recovers them character by character. The fix gives
customer text columns a statistics target of 0 (sql/tables.sql, revision 0010): nothing is
sampled, so every such estimate is the planner's constant default. Each test has its twin: the
same column with statistics, which leaks.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg
import pytest

from registry import hardening
from tests.helpers import agent, bind_tenant_login, tenant

LOGIN = "registry_stats_tenant"  # tenant A's console login: registry_app + registry_tenant_<A>
# What a probe asks: how many rows of `agents` have a slug below the bound, as the planner estimates.
PROBE = "EXPLAIN (FORMAT JSON) SELECT 1 FROM agents WHERE slug < %s"
# The product's own vocabulary (CHECK-constrained values, no customer's words) keeps its statistics.
VOCABULARY_COLUMNS = {"layer", "status", "kind", "change"}


@pytest.fixture
def world(db) -> Iterator[dict]:
    a, b = tenant(db, "tenant-a"), tenant(db, "tenant-b")
    # B's agents: slugs that sort at the very end, and many of them, so a histogram would be all B's.
    for i in range(300):
        agent(db, f"zz-secret-{i:03d}", tenant_id=b)
    # A's own, as many: the planner estimates A's visible share of the table (the read policy is
    # inline since hostile round 11, so the planner knows the visible tenants) times the slug's
    # selectivity, and with A's one row that product rounded to 1 row whatever the bound.
    for i in range(300):
        agent(db, f"aa-own-{i:03d}", tenant_id=a)
    db.execute(f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{LOGIN}') THEN
            CREATE ROLE {LOGIN} LOGIN IN ROLE registry_app;
        END IF; END $$""")
    bind_tenant_login(db, LOGIN, a)
    yield {"a": a, "b": b}


@contextlib.contextmanager
def console(db, world) -> Iterator[psycopg.Connection]:
    url = f"postgresql://{LOGIN}@{db.info.host}:{db.info.port}/{db.info.dbname}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT set_config('registry.tenant_id', %s, false)", (str(world["a"]),))
        yield conn


def estimates(conn: psycopg.Connection, bounds: list[str]) -> list[float]:
    return [conn.execute(PROBE, (bound,)).fetchone()[0][0]["Plan"]["Plan Rows"] for bound in bounds]


def analyze(db) -> None:
    db.execute("ANALYZE agents")  # what autovacuum does on a table that has seen writes


BOUNDS = ["a", "m", "zz-secret-1", "zz-secret-2", "zzz"]


def test_a_tenant_login_cannot_read_other_tenants_slugs_from_plain_explain(db, world):
    analyze(db)
    with console(db, world) as conn:
        assert conn.execute("SELECT count(*) FROM agents WHERE slug LIKE 'zz-secret%'").fetchone()[0] == 0
        seen = estimates(conn, BOUNDS)
    assert len(set(seen)) == 1, seen  # the same default estimate whatever the bound: nothing to search


def test_twin_with_statistics_on_the_slug_the_estimate_walks_through_b_s_slugs(db, world):
    db.execute("ALTER TABLE agents ALTER COLUMN slug SET STATISTICS -1")
    analyze(db)
    with console(db, world) as conn:
        seen = estimates(conn, BOUNDS)
    # below every slug of B's: A's share; above all of them: the visible share of all 600 rows;
    # between: part of B's
    assert seen[0] < seen[2] < seen[3] < seen[4], seen


def test_every_customer_text_column_of_a_tenant_table_has_no_statistics_target(db):
    """The rule, so a column added later is caught: text and json of a row-level-security table
    are sampled by nothing, except the product's vocabulary columns."""
    sampled = db.execute(
        """SELECT c.relname || '.' || a.attname
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relrowsecurity
              AND a.attnum > 0 AND NOT a.attisdropped
              AND a.atttypid IN ('text'::regtype, 'jsonb'::regtype, 'json'::regtype, 'varchar'::regtype)
              AND a.attstattarget <> 0 AND NOT (a.attname = ANY (%s))
            ORDER BY 1""", (sorted(VOCABULARY_COLUMNS),)).fetchall()
    assert sampled == []
    # and the vocabulary columns do keep theirs: the exception is as narrow as it says
    kept = db.execute(
        """SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relnamespace = 'public'::regnamespace AND c.relrowsecurity AND a.attname = 'layer'
              AND a.attstattarget = -1""").fetchone()[0]
    assert kept > 0


def test_hardening_clears_statistics_gathered_before_the_target_was_zero(db, world):
    db.execute("ALTER TABLE agents ALTER COLUMN slug SET STATISTICS -1")
    analyze(db)
    db.execute("ALTER TABLE agents ALTER COLUMN slug SET STATISTICS 0")  # what revision 0010 does
    analyze(db)
    stale = """SELECT count(*) FROM pg_statistic s JOIN pg_attribute a ON a.attrelid = s.starelid
                AND a.attnum = s.staattnum WHERE s.starelid = 'agents'::regclass AND a.attname = 'slug'"""
    assert db.execute(stale).fetchone()[0] == 1  # ANALYZE skips the column and leaves what it had
    with console(db, world) as conn:
        assert len(set(estimates(conn, BOUNDS))) > 1  # and the planner still reads it
    hardening.harden(db, [], hardening.LoginLimits(connection_limit=5, temp_file_limit="1GB"))
    assert db.execute(stale).fetchone()[0] == 0
    with console(db, world) as conn:
        assert len(set(estimates(conn, BOUNDS))) == 1
