"""Change notifications are hints, never trusted input: any login can pg_notify on
registry_changes. Forged payloads are ignored and counted by the watcher and the cache, never
crash either, and a real change still arrives afterwards; a cache whose follower dies stops
serving cached entries."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from registry.api import Registry
from registry.cache import ScopeCache
from registry.models import AgentChanges, AgentContent
from registry.api import AgentRef
from registry.paths import ROOT
from registry.watch import (
    CHANNEL,
    RECONNECTED,
    Change,
    IgnoredNotifications,
    InvalidNotification,
    parse_notification,
    watch_changes,
)

POSTURE = "Responda com o número primeiro."
FORGER = "registry_test_forger"

REAL = {"table": "agents", "operation": "update", "tenant_id": 1, "project_id": None, "slug": "caixa",
        "agent_id": 5, "version": 3}
FORGED = [
    "not json",
    "",
    "5",
    "null",
    '"agents"',
    "[1, 2]",
    '{"operation": 5}',
    json.dumps(REAL | {"operation": "truncate"}),
    json.dumps(REAL | {"operation": "reconnected"}),
    json.dumps(REAL | {"table": "tenants"}),
    json.dumps(REAL | {"tenant_id": "1"}),
    json.dumps(REAL | {"tenant_id": -1}),
    json.dumps(REAL | {"tenant_id": 0}),
    json.dumps(REAL | {"tenant_id": 1.5}),
    json.dumps(REAL | {"tenant_id": True}),
    json.dumps(REAL | {"tenant_id": 2**63}),
    json.dumps(REAL | {"tenant_id": None, "project_id": 2}),
    json.dumps(REAL | {"project_id": [2]}),
    json.dumps(REAL | {"agent_id": {}}),
    json.dumps(REAL | {"version": "3"}),
    json.dumps(REAL | {"slug": "\u001b[2J\u202egotcha"}),
    json.dumps(REAL | {"slug": 7}),
    json.dumps({k: v for k, v in REAL.items() if k != "tenant_id"}),
    "[" * 7_900,                                           # deep nesting
    "[" * 3_900 + "]" * 3_900,
    '{"table": "agents", "operation": "insert", "tenant_id": NaN, "project_id": null}',
]


# -- the parser ----------------------------------------------------------------------------------
def test_the_registrys_own_shape_is_a_change():
    change = parse_notification(json.dumps(REAL))
    assert (change.table, change.operation, change.tenant_id, change.slug, change.version) == \
        ("agents", "update", 1, "caixa", 3)
    official = parse_notification(json.dumps(REAL | {"tenant_id": None, "slug": "", "version": None,
                                                     "table": "agent_defaults", "extra": "ignored"}))
    assert official.tenant_id is None and official.slug == ""


@pytest.mark.parametrize("payload", FORGED)
def test_anything_else_is_an_invalid_notification(payload):
    with pytest.raises(InvalidNotification):
        parse_notification(payload)


# -- through a real server -------------------------------------------------------------------------
@pytest.fixture
def reg(db) -> Registry:
    registry = Registry(db, actor="ops")
    for tenant_slug, projects in (("acme", ("sales",)), ("globex", ("lab",))):
        registry.create_tenant(tenant_slug)
        for project_slug in projects:
            registry.create_project(tenant_slug, project_slug)
    registry.create_agent(AgentContent(slug="analyst", instructions=POSTURE, status="published"))
    return registry


@pytest.fixture
def forger_url(db) -> str:
    """A login that is only registry_app: what a hostile tenant's service holds."""
    try:
        db.execute(f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{FORGER}') THEN
                CREATE ROLE {FORGER} LOGIN IN ROLE registry_app;
            END IF; END $$""")
    except psycopg.errors.UniqueViolation:
        pass
    info = db.info
    return f"postgresql://{FORGER}@{info.host}:{info.port}/{info.dbname}"


def forge(url: str, payloads: list[str]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for payload in payloads:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_watcher_ignores_forgeries_and_still_delivers_real_changes(reg, db_url, forger_url):
    stop, ready = threading.Event(), threading.Event()
    ignored, reasons, seen = IgnoredNotifications(), [], []

    def run() -> None:
        for change in watch_changes(db_url, stop=stop, poll_seconds=0.2, ready=ready, ignored=ignored,
                                    on_ignored=lambda payload, reason: reasons.append(reason)):
            seen.append(change)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ready.wait(5)
        forge(forger_url, FORGED)
        after = reg.create_agent(AgentContent(slug="after", instructions=POSTURE), tenant="acme")
        wait_for(lambda: any(c.agent_id == after.id for c in seen))
        assert thread.is_alive()
        assert ignored.count == len(FORGED) == len(reasons)
        assert all(isinstance(c, Change) and c.table == "agents" for c in seen) and len(seen) == 1
        assert "not JSON" in reasons and "operation is not insert, update or delete" in reasons
    finally:
        stop.set()
        thread.join(5)


def test_a_hook_that_raises_does_not_end_the_watch(reg, db_url, forger_url):
    stop, ready, seen = threading.Event(), threading.Event(), []

    def hook(payload: str, reason: str) -> None:
        raise RuntimeError("a broken logger")

    def run() -> None:
        for change in watch_changes(db_url, stop=stop, poll_seconds=0.2, ready=ready, on_ignored=hook):
            seen.append(change)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ready.wait(5)
        forge(forger_url, ["not json"])
        after = reg.create_agent(AgentContent(slug="after", instructions=POSTURE), tenant="acme")
        wait_for(lambda: any(c.agent_id == after.id for c in seen))
    finally:
        stop.set()
        thread.join(5)


def read_lines(stream, into: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        into.put(line)


def test_registry_watch_warns_on_stderr_and_keeps_json_lines_valid(reg, db_url, forger_url):
    env = dict(os.environ, REGISTRY_DATABASE_URL=db_url)
    proc = subprocess.Popen([sys.executable, "-m", "registry.cli", "watch", "--json"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = queue.Queue(), queue.Queue()
    for stream, into in ((proc.stdout, out), (proc.stderr, err)):
        threading.Thread(target=read_lines, args=(stream, into), daemon=True).start()
    try:
        assert "Watching registry_changes" in err.get(timeout=30)
        # LISTEN runs just after that line: wait until the watcher's backend is listening.
        with psycopg.connect(db_url, autocommit=True) as conn:
            wait_for(lambda: conn.execute("SELECT count(*) FROM pg_stat_activity WHERE query = %s",
                                          (f"LISTEN {CHANNEL}",)).fetchone()[0] >= 1)
        forge(forger_url, FORGED)
        after = reg.create_agent(AgentContent(slug="after", instructions=POSTURE), tenant="acme")
        line = out.get(timeout=30)
        assert json.loads(line)["agent_id"] == after.id
        warnings = [err.get(timeout=10) for _ in FORGED]
        assert all(w.startswith("registry watch: ignored a notification that is not the registry's (")
                   for w in warnings), warnings
        assert not any("Traceback" in w or "\x1b" in w or "\u202e" in w for w in warnings)
        assert proc.poll() is None                                 # still watching
        later = reg.create_agent(AgentContent(slug="later", instructions=POSTURE), tenant="globex")
        assert json.loads(out.get(timeout=30))["agent_id"] == later.id
        assert out.empty()
    finally:
        proc.terminate()
        proc.wait(10)


# -- the cache ---------------------------------------------------------------------------------------
def test_the_cache_survives_forgeries_and_a_forged_invalidation_costs_a_reread(reg, db, db_url, forger_url):
    acme, globex = reg.scope("acme"), reg.scope("globex", "lab")
    cache = ScopeCache(Registry(psycopg.connect(db_url, autocommit=True)), product_rules="REGRAS.")
    stop, ready = threading.Event(), threading.Event()
    thread = cache.follow(watch_changes(db_url, stop=stop, poll_seconds=0.2, ready=ready))
    try:
        assert ready.wait(5)
        first = cache.prompt(acme.tenant_id, None, "analyst")
        cache.catalog(globex.tenant_id, globex.project_id)
        scopes = cache.cached_scopes()
        forge(forger_url, FORGED)
        forge(forger_url, ["not json"])
        time.sleep(1)
        assert thread.is_alive() and cache.following
        assert cache.cached_scopes() == scopes                     # a malformed payload drops nothing

        # A well-shaped forgery for acme: acme's entries go and are read again, unchanged.
        forge(forger_url, [json.dumps(REAL | {"tenant_id": acme.tenant_id})])
        wait_for(lambda: cache.cached_scopes() == {(globex.tenant_id, globex.project_id)})
        assert cache.prompt(acme.tenant_id, None, "analyst").fingerprint == first.fingerprint

        # A real change still arrives and invalidates.
        reg.create_agent(AgentContent(slug="analyst", name="Acme analyst", instructions="Outro texto.",
                                      status="published"), tenant="acme")
        wait_for(lambda: cache.cached_scopes() == {(globex.tenant_id, globex.project_id)})
        assert cache.prompt(acme.tenant_id, None, "analyst").fingerprint != first.fingerprint
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(5)


END = object()


class Feed:
    """A stream of changes a test controls: put() a change, an exception to raise, or END."""

    def __init__(self) -> None:
        self.items: queue.Queue = queue.Queue()

    def __iter__(self):
        while True:
            item = self.items.get()
            if isinstance(item, BaseException):
                raise item
            if item is END:
                return
            yield item


def applied(cache: ScopeCache, feed: Feed) -> None:
    """Wait until the follower has taken everything put so far."""
    wait_for(lambda: feed.items.empty() or not cache.following)
    time.sleep(0.1)


def test_bad_items_in_the_stream_are_ignored_and_counted(reg):
    acme = reg.scope("acme")
    cache = ScopeCache(reg, product_rules="REGRAS.")
    feed = Feed()
    thread = cache.follow(feed)
    cache.catalog(acme.tenant_id)
    for item in ({"operation": 5}, None, "not json", 5, Change(operation="bogus", tenant_id=acme.tenant_id),
                 Change(operation="update", tenant_id=-3)):
        feed.items.put(item)
    applied(cache, feed)
    assert thread.is_alive() and cache.ignored == 6
    assert cache.cached_scopes() == {(acme.tenant_id, None)}
    feed.items.put(Change(table="agents", operation="update", tenant_id=acme.tenant_id))
    applied(cache, feed)
    assert cache.cached_scopes() == set() and thread.is_alive()


def test_a_follower_that_dies_makes_the_cache_read_the_database(reg, db):
    acme = reg.scope("acme")
    cache = ScopeCache(reg, product_rules="REGRAS.")
    feed = Feed()
    thread = cache.follow(feed)
    first = cache.prompt(acme.tenant_id, None, "analyst")
    misses = cache.misses
    assert cache.prompt(acme.tenant_id, None, "analyst") is first and cache.misses == misses   # cached

    feed.items.put(RuntimeError("the stream broke"))
    thread.join(5)
    assert not thread.is_alive() and not cache.following and not cache.serving
    assert isinstance(cache.follower_error, RuntimeError)

    # An edit whose notification nobody will apply: the cache must not serve the old prompt.
    db.execute("UPDATE agents SET instructions = 'Texto novo, sem aviso.' WHERE slug = 'analyst'")
    second = cache.prompt(acme.tenant_id, None, "analyst")
    assert second.fingerprint != first.fingerprint and "Texto novo" in second.text
    before = cache.misses
    cache.prompt(acme.tenant_id, None, "analyst")
    assert cache.misses > before and cache.cached_scopes() == set()   # every call reads, nothing kept

    # Following again serves from the cache again (one follower at a time).
    feed = Feed()
    thread = cache.follow(feed)
    with pytest.raises(RuntimeError, match="already follows"):
        cache.follow(Feed())
    third = cache.prompt(acme.tenant_id, None, "analyst")
    assert cache.prompt(acme.tenant_id, None, "analyst") is third and cache.following
    feed.items.put(END)                                            # a stream that simply ends
    thread.join(5)
    assert not cache.serving and cache.cached_scopes() == set()


def test_a_stream_that_ends_stops_the_cache_serving(reg):
    acme = reg.scope("acme")
    cache = ScopeCache(reg, product_rules="REGRAS.")
    thread = cache.follow([RECONNECTED])
    thread.join(5)
    assert not cache.serving and cache.follower_error is None
    cache.catalog(acme.tenant_id)
    assert cache.cached_scopes() == set()
