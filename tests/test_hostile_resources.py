"""A hostile tenant against what the whole cluster shares (hostile-tenant round 5: #17 the lock
table, #49 connections, #50 temp files, #18/#19 the NOTIFY queue), and the superuser's hardening
that bounds it (registry/hardening.py, sql/ops/harden.sql, docs/dba.md).

Real logins against the test cluster. Every defence has a twin: the same attack before
`harden()` ran, which works. Roles and ALTER ROLE are cluster-wide, so the logins here are this
module's own and their limits are reset afterwards; function privileges are per database, and
each test has its own (the db fixture).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

import psycopg
import pytest

from registry import hardening
from registry.api import Registry
from registry.cli import main
from registry.db import RegistryPool, reset_session
from registry.models import AgentContent
from registry.paths import ROOT
from tests.helpers import agent, bind_tenant_login, project, tenant

TENANT_LOGIN = "registry_harden_tenant"    # a console login tenant A holds: registry_app + registry_tenant_<A>
SERVICE_LOGIN = "registry_harden_service"  # a service's login: registry_app + registry_service
LIMITS = hardening.LoginLimits(connection_limit=2, temp_file_limit="1MB")
# One statement per lock-taking advisory function (sql/ops/harden.sql revokes exactly these).
LOCKERS = [f"SELECT {name}({args})"
           for name in ("pg_advisory_lock", "pg_advisory_lock_shared", "pg_advisory_xact_lock",
                        "pg_advisory_xact_lock_shared", "pg_try_advisory_lock", "pg_try_advisory_lock_shared",
                        "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared")
           for args in ("1", "1, 2")]
# A sort of 200k values with the smallest work_mem the login may set: several MB of temporary
# files, which any login may write (no TEMP privilege is involved).
SPILL = "SELECT count(DISTINCT md5(i::text)) FROM generate_series(1, 200000) AS i"


@pytest.fixture
def world(db) -> Iterator[dict]:
    t = tenant(db, "tenant-a")
    ids = {"tenant": t, "project": project(db, t, "project-a"), "official": agent(db, "analyst")}
    for login, group in ((TENANT_LOGIN, None), (SERVICE_LOGIN, "registry_service")):
        db.execute(f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{login}') THEN
                CREATE ROLE {login} LOGIN IN ROLE registry_app;
            END IF; END $$""")
        if group:
            db.execute(f"GRANT {group} TO {login}")
    bind_tenant_login(db, TENANT_LOGIN, t)
    yield ids
    for login in (TENANT_LOGIN, SERVICE_LOGIN):  # what harden() changed on the cluster's roles
        db.execute(f"ALTER ROLE {login} CONNECTION LIMIT -1")
        db.execute(f"ALTER ROLE {login} RESET temp_file_limit")
        db.execute(f"ALTER ROLE {login} RESET log_min_messages")
        db.execute(f"ALTER ROLE {login} RESET log_min_error_statement")


def _url(db, login: str, dbname: str | None = None) -> str:
    return f"postgresql://{login}@{db.info.host}:{db.info.port}/{dbname or db.info.dbname}"


@contextlib.contextmanager
def console(db, world, dbname: str | None = None) -> Iterator[psycopg.Connection]:
    """Tenant A's own raw-SQL login, naming its tenant for the session."""
    with psycopg.connect(_url(db, TENANT_LOGIN, dbname), autocommit=True) as conn:
        conn.execute("SELECT set_config('registry.tenant_id', %s, false)", (str(world["tenant"]),))
        yield conn


def harden(db) -> list[hardening.LoginState]:
    return hardening.harden(db, [TENANT_LOGIN, SERVICE_LOGIN], LIMITS)


# -- #17: the shared lock table ------------------------------------------------------------------
def test_twin_before_hardening_a_tenant_login_takes_advisory_locks(db, world):
    with console(db, world) as conn:
        conn.execute("SELECT pg_advisory_lock(0)")  # session-level: held after the transaction, idle
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(k) FROM generate_series(1, 100) AS k")
            held = conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                "AND pid = pg_backend_pid()").fetchone()[0]
    assert held == 101


@pytest.mark.parametrize("statement", LOCKERS)
def test_after_hardening_every_advisory_lock_is_refused(db, world, statement):
    harden(db)
    with console(db, world) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege,
                                                   match="permission denied for function"):
        conn.execute(statement)


def test_the_hardening_leaves_no_lock_taking_advisory_function_to_any_login(db, world):
    """Read from pg_proc, not from our list: a variant the script missed would show here."""
    lockers = db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace "
                         "AND proname ~ %s", (hardening.ADVISORY_LOCKERS,)).fetchone()[0]
    assert lockers == len(LOCKERS) == 16
    before = hardening.login_state(db, TENANT_LOGIN).advisory_lockers
    states = harden(db)
    assert before == 16
    assert [s.advisory_lockers for s in states] == [0, 0]
    with console(db, world) as conn:  # releasing stays possible: it frees only the caller's own locks
        conn.execute("SELECT pg_advisory_unlock_all()")
        assert conn.execute("SELECT pg_advisory_unlock(1)").fetchone() == (False,)


def test_after_hardening_the_registrys_pool_still_resets_its_connections(db, world):
    """registry.db's reset calls pg_advisory_unlock_all() at every return to the pool."""
    harden(db)
    with RegistryPool(_url(db, SERVICE_LOGIN), min_size=1, max_size=1) as pool:
        reg = Registry(pool).for_tenant(world["tenant"], role=None)
        for _ in range(3):  # the one connection, reset after each use
            assert [a.slug for a in reg.agents(world["tenant"], world["project"])] == ["analyst"]
        with pool.connection() as conn:
            backend = conn.info.backend_pid
        with pool.connection() as conn:
            assert conn.info.backend_pid == backend  # reused, not replaced after a failed reset
            assert conn.execute("SELECT count(*) FROM pg_listening_channels()").fetchone()[0] == 0


def test_twin_revoking_every_advisory_function_breaks_the_pools_reset(db, world):
    harden(db)
    db.execute("REVOKE EXECUTE ON FUNCTION pg_advisory_unlock_all() FROM PUBLIC")
    with psycopg.connect(_url(db, SERVICE_LOGIN)) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        reset_session(conn)


def test_advisory_locks_are_refused_only_where_the_hardening_ran(db, world):
    """The lock table is the cluster's: a login that may connect to another database takes
    advisory locks there. The hardening names those databases (docs/dba.md)."""
    (state, _) = harden(db)
    assert "postgres" in state.other_databases
    with console(db, world, dbname="postgres") as conn:
        assert conn.execute("SELECT pg_try_advisory_lock(1)").fetchone()[0] is True


# -- #50: temp files --------------------------------------------------------------------------
def test_twin_before_hardening_a_tenant_login_writes_temp_files_at_will(db, world):
    with console(db, world) as conn:
        assert conn.execute("SHOW temp_file_limit").fetchone()[0] == "-1"  # PostgreSQL's default: unlimited
        conn.execute("SET work_mem = '64kB'")
        assert conn.execute(SPILL).fetchone()[0] == 200000


def test_after_hardening_temp_files_are_capped_and_the_login_cannot_lift_the_cap(db, world):
    harden(db)
    with console(db, world) as conn:
        assert conn.execute("SHOW temp_file_limit").fetchone()[0] == "1MB"
        conn.execute("SET work_mem = '64kB'")
        with pytest.raises(psycopg.errors.ConfigurationLimitExceeded, match="temp_file_limit"):
            conn.execute(SPILL)
        for lift in ("SET temp_file_limit = -1", "SELECT set_config('temp_file_limit', '-1', false)",
                     "RESET temp_file_limit", f"ALTER ROLE {TENANT_LOGIN} SET temp_file_limit = -1",
                     f"ALTER ROLE {TENANT_LOGIN} RESET temp_file_limit"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(lift)
        assert conn.execute("SHOW temp_file_limit").fetchone()[0] == "1MB"


# -- round 6: the server log and the WAL ---------------------------------------------------------
def test_twin_before_hardening_a_tenant_login_writes_the_log_and_the_wal(db, world):
    with console(db, world) as conn:
        assert conn.execute("SHOW log_min_messages").fetchone()[0] == "warning"  # RAISE WARNING is logged
        conn.execute("SELECT pg_logical_emit_message(false, 'round6', repeat('x', 1000))")


def test_after_hardening_a_tenant_login_keeps_out_of_the_log_and_cannot_lift_it(db, world):
    harden(db)
    with console(db, world) as conn:
        assert conn.execute("SHOW log_min_messages").fetchone()[0] == "fatal"
        assert conn.execute("SHOW log_min_error_statement").fetchone()[0] == "panic"
        for lift in ("SET log_min_messages = 'debug5'", "SET log_min_error_statement = 'error'",
                     "RESET log_min_messages", f"ALTER ROLE {TENANT_LOGIN} RESET log_min_messages"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(lift)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT pg_logical_emit_message(false, 'round6', repeat('x', 1000))")
        # its own errors still reach it: only the server's log is spared
        with pytest.raises(psycopg.errors.RaiseException, match="still told"):
            conn.execute("DO $$ BEGIN RAISE EXCEPTION 'still told'; END $$")


# -- #49: connections -------------------------------------------------------------------------
def _connections(db, login: str, count: int) -> contextlib.ExitStack:
    """`count` open connections of `login`, closed when the stack is."""
    stack = contextlib.ExitStack()
    try:
        for _ in range(count):
            stack.enter_context(psycopg.connect(_url(db, login)))
    except BaseException:
        stack.close()
        raise
    return stack


def test_twin_before_hardening_a_tenant_login_opens_connections_at_will(db, world):
    with _connections(db, TENANT_LOGIN, LIMITS.connection_limit + 3):
        pass


def test_after_hardening_a_tenant_login_holds_its_connection_limit_and_no_more(db, world):
    harden(db)
    with _connections(db, TENANT_LOGIN, LIMITS.connection_limit) as held:
        with pytest.raises(psycopg.OperationalError, match=f'too many connections for role "{TENANT_LOGIN}"'):
            psycopg.connect(_url(db, TENANT_LOGIN))
        conn = held.enter_context(psycopg.connect(_url(db, SERVICE_LOGIN)))  # another login is not affected
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # and the login cannot lift its own
            with psycopg.connect(_url(db, SERVICE_LOGIN), autocommit=True) as own:
                own.execute(f"ALTER ROLE {SERVICE_LOGIN} CONNECTION LIMIT -1")
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert db.execute("SELECT rolconnlimit FROM pg_roles WHERE rolname = %s", (TENANT_LOGIN,)).fetchone() == (2,)


# -- #18/#19: notifications ---------------------------------------------------------------------
def test_after_hardening_the_registrys_triggers_still_notify(db, world):
    harden(db)
    with psycopg.connect(_url(db, SERVICE_LOGIN), autocommit=True) as listener:
        listener.execute("LISTEN registry_changes")
        with psycopg.connect(_url(db, TENANT_LOGIN)) as conn:
            reg = Registry(conn).for_tenant(world["tenant"], role=None)
            created = reg.create_agent(AgentContent(slug="caixa", name="Caixa", status="published",
                                                    instructions="Mostre o saldo semana a semana."),
                                       tenant=world["tenant"])
        (note,) = list(listener.notifies(timeout=10, stop_after=1))
    payload = json.loads(note.payload)
    expected = {"table": "agents", "operation": "insert", "agent_id": created.id, "tenant_id": world["tenant"]}
    assert {key: payload.get(key) for key in expected} == expected


def test_notify_needs_no_privilege_so_revoking_pg_notify_would_not_hold(db, world):
    """Why sql/ops/harden.sql leaves pg_notify alone: a login denied the function sends the same
    notifications with the NOTIFY statement, which no privilege governs — also from a DO block,
    a whole flood in one statement (round 5, #18, #19)."""
    db.execute("REVOKE EXECUTE ON FUNCTION pg_notify(text, text) FROM PUBLIC")
    with psycopg.connect(_url(db, SERVICE_LOGIN), autocommit=True) as listener:
        listener.execute("LISTEN registry_hardening_probe")
        with console(db, world) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT pg_notify('registry_hardening_probe', 'function')")
            conn.execute("""DO $$ BEGIN FOR i IN 1..50 LOOP
                                EXECUTE format('NOTIFY registry_hardening_probe, %L', i);
                            END LOOP; END $$""")
        payloads = [n.payload for n in listener.notifies(timeout=10, stop_after=50)]
    assert payloads == [str(i) for i in range(1, 51)]


def test_a_listener_in_an_open_transaction_pins_the_queue_and_the_pinners_query_finds_it(db, world):
    """#19 is not preventable on PostgreSQL 15 (LISTEN has no privilege): it is watched for, and
    the session ended. sql/ops/notify_queue_pinners.sql is the query docs/dba.md gives."""
    pinners = (ROOT / "sql" / "ops" / "notify_queue_pinners.sql").read_text(encoding="utf-8")
    pinning = psycopg.connect(_url(db, TENANT_LOGIN))  # closed by hand: it is terminated below
    try:
        pinning.execute("LISTEN registry_hardening_probe")
        pinning.commit()
        pinning.execute("SELECT 1")  # and then nothing: idle in transaction, reading no notification
        with psycopg.connect(_url(db, SERVICE_LOGIN), autocommit=True) as sender:
            # ~160 kB: the queue's usage is counted in 8 kB pages
            sender.execute("SELECT pg_notify('registry_hardening_probe', i || repeat('x', 7900)) "
                           "FROM generate_series(1, 20) AS i")
        assert db.execute("SELECT pg_notification_queue_usage()").fetchone()[0] > 0  # pinned behind the listener
        found = [(row[0], row[1]) for row in db.execute(pinners)]
        assert (pinning.info.backend_pid, TENANT_LOGIN) in found  # other tests' sessions may be listed too
        assert db.execute("SELECT pg_terminate_backend(%s, 10000)",
                          (pinning.info.backend_pid,)).fetchone() == (True,)
        assert db.execute("SELECT pg_notification_queue_usage()").fetchone()[0] == 0  # the tail moved on
    finally:
        pinning.close()


# -- the command ------------------------------------------------------------------------------
def test_registry_harden_limits_the_named_logins_and_says_what_holds(db, db_url, world, monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", db_url)
    assert main(["harden", "--login", TENANT_LOGIN, "--connection-limit", "3", "--temp-file-limit", "2MB"]) == 0
    out = capsys.readouterr().out
    assert (f"Database {db.info.dbname}: advisory-lock, large-object, logical-message, WAL-position, "
            "transaction-id and multixact-member functions revoked from PUBLIC (WAL positions kept for "
            "registry_service and staff); planner statistics on customer text cleared.") in out
    assert (f"{TENANT_LOGIN}: connection limit 3, temp_file_limit 2MB, advisory locks here refused, "
            "WAL positions here refused, multixact members here refused, log_min_messages fatal") in out
    assert f"warning: {TENANT_LOGIN} may also connect to" in out
    with console(db, world) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT lo_create(0)")  # round 4, #42: large objects revoked in the same step


def test_registry_harden_sql_prints_the_script_without_a_database(monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    assert main(["harden", "--sql", "--login", 'acme"console']) == 0
    script = capsys.readouterr().out
    assert script.startswith("BEGIN;") and script.endswith("COMMIT;\n")
    assert "pg_try_advisory_xact_lock_shared(integer, integer)" in script
    assert 'ALTER ROLE "acme""console" CONNECTION LIMIT 5;' in script
    assert 'ALTER ROLE "acme""console" SET temp_file_limit = \'1GB\';' in script


@pytest.mark.parametrize("argv, code, message", [
    (["--temp-file-limit", "-1"], 1, "-1, unlimited, is what the hardening removes"),
    (["--temp-file-limit", "1 GB; DROP"], 1, "give a size such as 500MB"),
    (["--connection-limit", "0"], 1, "give a number of connections from 1"),
    (["--login", "registry_no_such_login"], 4, "no login named 'registry_no_such_login'"),
])
def test_registry_harden_refuses_bad_input_before_changing_anything(db, db_url, world, monkeypatch, capsys,
                                                                     argv, code, message):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", db_url)
    assert main(["harden", *argv]) == code
    assert message in capsys.readouterr().err
    assert hardening.login_state(db, TENANT_LOGIN).advisory_lockers == 16


def test_registry_harden_refuses_a_login_that_is_not_a_superuser(db, world, monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", _url(db, SERVICE_LOGIN))
    assert main(["harden", "--login", TENANT_LOGIN]) == 2
    assert "registry harden must run as a superuser" in capsys.readouterr().err
    assert hardening.login_state(db, TENANT_LOGIN).advisory_lockers == 16
