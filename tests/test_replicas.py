"""Reads on a streaming hot standby (registry.replicas): a real primary and standby
(tests/conftest.py's replica_pair), replay paused with pg_wal_replay_pause() to make the
standby fall behind on purpose.

What must hold: a read that passes a write's WAL position sees that write (from the standby once
it has replayed it, from the primary when it has not in time); a read without one may see the
old state; a standby never serves LISTEN; a cache that reads from the standby never re-caches
the state from before a change it was told of."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time

import psycopg
import pytest

from registry.api import AgentRef, Registry
from registry.cache import ScopeCache
from registry.db import RegistryPool
from registry.errors import ConfigurationError, InvalidInput
from registry.models import AgentChanges, AgentContent
from registry.replicas import Replicas, lsn_value
from registry.watch import watch_changes

_tenants = itertools.count()


@pytest.fixture
def pair(replica_pair):
    primary_url, standby_url = replica_pair
    pools = [RegistryPool(primary_url, min_size=1, max_size=2), RegistryPool(standby_url, min_size=1, max_size=2)]
    try:
        yield primary_url, standby_url, pools[0], pools[1]
    finally:
        for pool in pools:
            pool.close()


@pytest.fixture
def tenant(pair) -> str:
    """A tenant of this test's own, with one published agent, replayed on the standby."""
    primary_url, standby_url, primary, _ = pair
    slug = f"t{next(_tenants)}-{int(time.time() * 1000) % 100000}"
    writer = Registry(primary, actor="ana@acme")
    writer.create_tenant(slug)
    writer.create_agent(AgentContent(slug="caixa", instructions="Versão um.", status="published"), tenant=slug)
    wait_replayed(standby_url, writer.last_commit_lsn)
    return slug


def wait_replayed(standby_url: str, lsn: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    with psycopg.connect(standby_url, autocommit=True) as conn:
        while lsn_value(conn.execute("SELECT pg_last_wal_replay_lsn()::text").fetchone()[0]) < lsn_value(lsn):
            assert time.monotonic() < deadline, "the standby did not replay in time"
            time.sleep(0.02)


@contextlib.contextmanager
def replay_paused(standby_url: str):
    with psycopg.connect(standby_url, autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()")
        deadline = time.monotonic() + 10
        while conn.execute("SELECT pg_get_wal_replay_pause_state()").fetchone()[0] != "paused":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        try:
            yield
        finally:
            conn.execute("SELECT pg_wal_replay_resume()")


def instructions_of(registry: Registry, tenant: str, **read) -> str:
    return next(a.instructions for a in registry.agents(tenant, **read) if a.slug == "caixa")


def test_the_standby_is_a_hot_standby(pair):
    _, standby_url, _, _ = pair
    with psycopg.connect(standby_url) as conn:
        assert conn.execute("SELECT pg_is_in_recovery()").fetchone()[0] is True


def test_a_registry_reads_its_own_writes_from_the_standby(pair, tenant):
    _, _, primary, standby = pair
    replicas = Replicas([standby], max_wait_seconds=5)
    reg = Registry(primary, actor="ana@acme", read=replicas)
    agent = reg.agent(AgentRef("caixa", tenant=tenant))
    reg.update_agent(agent.id, AgentChanges(instructions="Versão dois."), agent.version)
    assert reg.last_commit_lsn is not None
    # No min_lsn given: the Registry passes its own last write's position by itself.
    assert instructions_of(reg, tenant) == "Versão dois."
    assert reg.for_tenant(tenant).agent(agent.id).instructions == "Versão dois."   # the same client
    assert replicas.counts.replica >= 2 and replicas.counts.primary == 0


def test_while_replay_is_paused_a_read_without_the_position_is_stale_and_one_with_it_is_not(pair, tenant):
    primary_url, standby_url, primary, standby = pair
    writer = Registry(primary, actor="ana@acme")
    replicas = Replicas([standby], max_wait_seconds=0.3)
    reader = Registry(primary, read=replicas)                    # another client: none of its own writes
    agent = writer.agent(AgentRef("caixa", tenant=tenant))
    with replay_paused(standby_url):
        writer.update_agent(agent.id, AgentChanges(instructions="Versão dois."), agent.version)
        written = writer.last_commit_lsn

        assert instructions_of(reader, tenant) == "Versão um."                  # the standby, behind
        assert replicas.counts.replica == 1

        started = time.monotonic()
        assert instructions_of(reader, tenant, min_lsn=written) == "Versão dois."  # waited, then the primary
        assert 0.3 <= time.monotonic() - started < 5
        assert replicas.counts.primary == 1 and replicas.counts.replica == 1
    wait_replayed(standby_url, written)
    assert instructions_of(reader, tenant, min_lsn=written) == "Versão dois."
    assert replicas.counts.replica == 2 and replicas.counts.primary == 1          # the standby again


def test_a_read_waits_for_replay_within_its_bound(pair, tenant):
    _, standby_url, primary, standby = pair
    writer = Registry(primary, actor="ana@acme")
    replicas = Replicas([standby], max_wait_seconds=10)
    reader = Registry(primary, read=replicas)
    agent = writer.agent(AgentRef("caixa", tenant=tenant))
    with replay_paused(standby_url):
        writer.update_agent(agent.id, AgentChanges(instructions="Versão três."), agent.version)
        threading.Timer(0.3, lambda: psycopg.connect(standby_url, autocommit=True).execute(
            "SELECT pg_wal_replay_resume()").connection.close()).start()
        assert instructions_of(reader, tenant, min_lsn=writer.last_commit_lsn) == "Versão três."
    assert replicas.counts.replica == 1 and replicas.counts.waited == 1 and replicas.counts.primary == 0


def test_an_unreachable_replica_is_passed_over_for_the_primary(pair, tenant):
    primary_url, standby_url, primary, _ = pair
    gone = psycopg.connect(standby_url, autocommit=True)
    gone.close()
    replicas = Replicas([gone], max_wait_seconds=0.1)
    reader = Registry(primary, read=replicas)
    assert instructions_of(reader, tenant) == "Versão um."
    assert replicas.counts.unreachable == 1 and replicas.counts.primary == 1


def test_bad_positions_and_settings_are_refused(pair, monkeypatch):
    _, _, primary, standby = pair
    reader = Registry(primary, read=Replicas([standby]))
    with pytest.raises(InvalidInput, match="not a WAL position"):
        reader.conversation(1, min_lsn="yesterday")
    with pytest.raises(InvalidInput, match="Replicas"):
        Registry(primary, read=[standby])
    with pytest.raises(InvalidInput, match="0 to 60 seconds"):
        Replicas([standby], max_wait_seconds=-1)

    from registry import db
    monkeypatch.setenv("REGISTRY_READ_URL", "postgresql://a@h/db,,postgresql://b@h/db")
    with pytest.raises(ConfigurationError, match="empty entry"):
        db.read_urls()
    monkeypatch.setenv("REGISTRY_READ_URL", "postgresql://a@h/db, mysql://b@h/db")
    with pytest.raises(ConfigurationError, match="REGISTRY_READ_URL must be a postgresql://"):
        db.read_urls()
    monkeypatch.setenv("REGISTRY_READ_URL", " postgresql://a@h1/db , postgresql://b@h2/db ")
    assert db.read_urls() == ["postgresql://a@h1/db", "postgresql://b@h2/db"]


def test_a_standby_is_refused_as_the_watch_url(pair):
    _, standby_url, _, _ = pair
    with pytest.raises(ConfigurationError, match="hot standby, which cannot LISTEN"):
        next(watch_changes(standby_url))


def test_a_cache_reading_from_the_standby_never_recaches_the_old_version(pair, tenant):
    """The change arrives from the primary at once; the standby has not replayed it (paused).
    A re-read must not take the old version from the standby and keep it."""
    primary_url, standby_url, primary, standby = pair
    writer = Registry(primary, actor="ana@acme")
    replicas = Replicas([standby], max_wait_seconds=0.2)
    cache = ScopeCache(Registry(primary, read=replicas), product_rules="REGRAS.")
    stop, ready = threading.Event(), threading.Event()
    seen: list = []
    cache.follow(watch_changes(primary_url, stop=stop, poll_seconds=0.1, ready=ready),
                 on_applied=lambda change, dropped: seen.append(change))
    try:
        assert ready.wait(5)
        tenant_id = writer.scope(tenant).tenant_id
        assert instructions_of_cached(cache, tenant_id) == "Versão um."
        agent = writer.agent(AgentRef("caixa", tenant=tenant))
        with replay_paused(standby_url):
            writer.update_agent(agent.id, AgentChanges(instructions="Versão quatro."), agent.version)
            wait_until(lambda: any(c.agent_id == agent.id and c.version == agent.version + 1 for c in seen))
            change = next(c for c in seen if c.agent_id == agent.id)
            assert lsn_value(change.lsn) >= lsn_value(writer.last_commit_lsn)
            # The standby still holds "Versão um."; the cache asks for the change's position.
            assert instructions_of_cached(cache, tenant_id) == "Versão quatro."
            assert instructions_of_cached(cache, tenant_id) == "Versão quatro."      # and keeps that
            assert replicas.counts.primary >= 1
    finally:
        stop.set()


def instructions_of_cached(cache: ScopeCache, tenant_id: int) -> str:
    return next(a.instructions for a in cache.catalog(tenant_id) if a.slug == "caixa")


def wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
