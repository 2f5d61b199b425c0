"""The cache contract while the database is unreachable (registry.cache, ADR 0016), on a server
of its own that the test stops and starts again: what the cache holds is served, marked stale,
for at most max_stale_seconds; an entry it was told is invalidated is never served; after the
bound nothing cached is served; once the watcher is back, everything is read again."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from registry.api import AgentRef, Registry
from registry.cache import ScopeCache
from registry.db import RegistryPool
from registry.embedded import throwaway_server
from registry.models import AgentChanges, AgentContent
from registry.schema import apply_schema
from registry.watch import watch_changes

BOUND = 3.0


def wait_until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def instructions(catalog) -> list[str]:
    return [a.instructions for a in catalog]


def test_an_outage_serves_stale_entries_for_a_bounded_time_and_never_an_invalidated_one():
    with throwaway_server() as server:
        url = server.url()
        with psycopg.connect(url, autocommit=True) as conn:
            apply_schema(conn)
        pool = RegistryPool(url, min_size=1, max_size=2, timeout=1.0, reconnect_timeout=60)
        stop, ready = threading.Event(), threading.Event()
        try:
            writer = Registry(pool, actor="ana@acme")
            acme, globex = writer.create_tenant("acme").id, writer.create_tenant("globex").id
            for tenant in (acme, globex):
                writer.create_agent(AgentContent(slug="caixa", instructions="Versão um.", status="published"),
                                    tenant=tenant)
            cache = ScopeCache(Registry(pool), product_rules="REGRAS.", max_stale_seconds=BOUND)
            cache.follow(watch_changes(url, stop=stop, poll_seconds=0.1, retry_seconds=0.2, ready=ready))
            assert ready.wait(5)
            assert instructions(cache.catalog(acme)) == instructions(cache.catalog(globex)) == ["Versão um."]

            agent = writer.agent(AgentRef("caixa", tenant="acme"))
            writer.update_agent(agent.id, AgentChanges(instructions="Versão dois."), agent.version)
            wait_until(lambda: (acme, None) not in cache.cached_scopes())          # told, dropped

            server.stop()
            wait_until(lambda: cache.stale)
            assert instructions(cache.catalog(globex)) == ["Versão um."]            # served, marked stale
            assert cache.stale and 0 < cache.stale_seconds <= BOUND
            with pytest.raises(Exception):                                         # noqa: B017 - any failure,
                cache.catalog(acme)                                                # never "Versão um."

            wait_until(lambda: cache.stale_seconds > BOUND)
            assert not cache.serving
            with pytest.raises(Exception):                                         # noqa: B017
                cache.catalog(globex)                                              # past the bound: nothing cached

            server.start()
            wait_until(lambda: not cache.stale and cache.serving, seconds=20)     # reconnected: all dropped
            assert cache.cached_scopes() == set()
            assert instructions(cache.catalog(acme)) == ["Versão dois."]
            assert instructions(cache.catalog(globex)) == ["Versão um."]
        finally:
            stop.set()
            pool.close()
