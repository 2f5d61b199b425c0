"""The registry through a real PgBouncer in transaction mode (tests/pgbouncer.py), one server
connection per database: two tenants' transactions share one server session, and row-level
security, the tenant setting and the actor must not cross from one to the other. Also the one
setting for poolers (REGISTRY_POOLER=transaction: no server-side prepared statements, LISTEN on
REGISTRY_LISTEN_URL) and the combinations it refuses."""

from __future__ import annotations

import threading

import psycopg
import pytest

from registry import db as registry_db
from registry.api import AgentRef, Registry
from registry.cache import ScopeCache
from registry.cli import main
from registry.db import RegistryPool
from registry.errors import ConfigurationError, NotFound
from registry.models import AgentContent
from registry.watch import watch_changes
from tests.pgbouncer import pgbouncer


@pytest.fixture(scope="module")
def bouncer_port(pg_server):
    with pgbouncer(pg_server, pool_size=1) as port:
        yield port


@pytest.fixture
def pooled_url(db, bouncer_port) -> str:
    """This test's database, through PgBouncer."""
    return f"postgresql://{db.info.user}@127.0.0.1:{bouncer_port}/{db.info.dbname}"


@pytest.fixture
def tenants(db) -> tuple[int, int]:
    admin = Registry(db, actor="admin")
    return admin.create_tenant("acme").id, admin.create_tenant("globex").id


def test_two_clients_share_one_server_session(pooled_url):
    with psycopg.connect(pooled_url, autocommit=True, prepare_threshold=None) as one, \
            psycopg.connect(pooled_url, autocommit=True, prepare_threshold=None) as two:
        assert one.execute("SELECT pg_backend_pid()").fetchone() == two.execute("SELECT pg_backend_pid()").fetchone()


def test_without_the_setting_prepared_statements_break_and_with_it_they_do_not(pooled_url):
    # psycopg prepares after prepare_threshold executions; 0 = at once. Two clients on one
    # server session both create psycopg's first statement name there: PgBouncer 1.18 cannot
    # keep them apart.
    query = "SELECT count(*) FROM pg_class WHERE relname = %s"
    with psycopg.connect(pooled_url, autocommit=True, prepare_threshold=0) as one, \
            psycopg.connect(pooled_url, autocommit=True, prepare_threshold=0) as two:
        one.execute(query, ("agents",))
        with pytest.raises(psycopg.errors.DuplicatePreparedStatement):
            two.execute(query, ("agents",))
    with registry_db.connect(pooled_url, pooler=True, autocommit=True) as one, \
            registry_db.connect(pooled_url, pooler=True, autocommit=True) as two:
        assert one.prepare_threshold is None
        for _ in range(10):  # past psycopg's default threshold of 5
            assert one.execute(query, ("agents",)).fetchone() == two.execute(query, ("agents",)).fetchone() == (1,)


def test_tenant_isolation_holds_across_pooled_server_connections(db, pooled_url, tenants):
    acme_id, globex_id = tenants
    pool = RegistryPool(pooled_url, pooler=True, min_size=2, max_size=4)
    try:
        registries = {acme_id: Registry(pool, actor="ana@acme").for_tenant(acme_id),
                      globex_id: Registry(pool, actor="bob@globex").for_tenant(globex_id)}
        errors: list[BaseException] = []

        def work(tenant_id: int) -> None:
            reg = registries[tenant_id]
            try:
                for i in range(15):
                    reg.create_agent(AgentContent(slug=f"a-{tenant_id}-{i}", instructions="Seja breve.",
                                                  status="published"), tenant=tenant_id)
                    slugs = {a.slug for a in reg.agents(tenant_id)}
                    assert slugs and all(s.startswith(f"a-{tenant_id}-") for s in slugs), slugs
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                errors.append(error)

        threads = [threading.Thread(target=work, args=(t,)) for t in (acme_id, globex_id)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == []

        # Every row landed in its tenant, written by its actor.
        rows = db.execute("SELECT tenant_id, created_by, count(*) FROM agents GROUP BY 1, 2 ORDER BY 1").fetchall()
        assert rows == [(acme_id, "ana@acme", 15), (globex_id, "bob@globex", 15)]

        # A tenant cannot name the other's agent, nor see it in any read.
        acme, globex = registries[acme_id], registries[globex_id]
        theirs = db.execute("SELECT id FROM agents WHERE tenant_id = %s LIMIT 1", (globex_id,)).fetchone()[0]
        with pytest.raises(NotFound):
            acme.agent(theirs)
        with pytest.raises(NotFound):
            acme.agent(AgentRef(f"a-{globex_id}-0", tenant=acme_id))
        assert globex.agent(theirs).id == theirs

        # What the server session carries after a tenant's transaction: nothing of it.
        with pool.connection() as conn:
            setting, actor, role = conn.execute(
                "SELECT COALESCE(current_setting('registry.tenant_id', true), ''), "
                "COALESCE(current_setting('registry.actor', true), ''), current_user").fetchone()
        assert (setting, actor, role) == ("", "", db.info.user)
    finally:
        pool.close()


def test_the_cache_reads_through_the_pooler_and_listens_directly(db, db_url, pooled_url, tenants):
    acme_id, _ = tenants
    pool = RegistryPool(pooled_url, pooler=True, min_size=1, max_size=2)
    stop, ready = threading.Event(), threading.Event()
    try:
        reader = Registry(pool)
        cache = ScopeCache(reader, product_rules="REGRAS.")
        cache.follow(watch_changes(db_url, stop=stop, poll_seconds=0.1, ready=ready))
        assert ready.wait(5)
        assert cache.catalog(acme_id) == []
        Registry(db, actor="ana@acme").create_agent(
            AgentContent(slug="caixa", instructions="Seja breve.", status="published"), tenant=acme_id)
        deadline = threading.Event()
        for _ in range(100):
            if [a.slug for a in cache.catalog(acme_id)] == ["caixa"]:
                break
            deadline.wait(0.05)
        assert [a.slug for a in cache.catalog(acme_id)] == ["caixa"]
    finally:
        stop.set()
        pool.close()


def test_impossible_combinations_are_refused_with_a_reason(monkeypatch, db_url, pooled_url, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", pooled_url)
    monkeypatch.setenv("REGISTRY_POOLER", "transaction")
    monkeypatch.delenv("REGISTRY_LISTEN_URL", raising=False)
    with pytest.raises(ConfigurationError, match="LISTEN cannot work through a pooler in transaction mode"):
        registry_db.listen_url()
    assert main(["watch"]) == 2
    assert "REGISTRY_LISTEN_URL" in capsys.readouterr().err

    monkeypatch.setenv("REGISTRY_LISTEN_URL", pooled_url)
    with pytest.raises(ConfigurationError, match="LISTEN needs a direct connection"):
        registry_db.listen_url()
    monkeypatch.setenv("REGISTRY_LISTEN_URL", db_url)
    assert registry_db.listen_url() == db_url

    with pytest.raises(ConfigurationError, match="leave prepare_threshold unset"):
        RegistryPool(pooled_url, kwargs={"prepare_threshold": 5}, open=False)
    with pytest.raises(ConfigurationError, match="leave prepare_threshold unset"):
        registry_db.connect(pooled_url, prepare_threshold=5)
    assert registry_db.connect(pooled_url).prepare_threshold is None      # the setting, from the environment

    monkeypatch.setenv("REGISTRY_POOLER", "statement-ish")
    with pytest.raises(ConfigurationError, match="REGISTRY_POOLER='statement-ish' is not a pool mode"):
        registry_db.connect(pooled_url)
