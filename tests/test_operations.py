"""Operating the registry: adoption counts, impact previews checked against what really changes,
change notifications, and the cache they invalidate."""

from __future__ import annotations

import json
import threading
import time

import psycopg
import pytest

from registry.api import AgentRef, Registry
from registry.cache import ScopeCache
from registry.models import AgentChanges, AgentContent
from registry.watch import CHANNEL, RECONNECTED, watch_changes
from tests.helpers import rows

POSTURE = "Responda com o número primeiro."


@pytest.fixture
def reg(db) -> Registry:
    registry = Registry(db, actor="ops")
    for tenant_slug, projects in (("acme", ("sales", "ops")), ("globex", ("lab",))):
        registry.create_tenant(tenant_slug)
        for project_slug in projects:
            registry.create_project(tenant_slug, project_slug)
    for slug in ("analyst", "summary"):
        registry.create_agent(AgentContent(slug=slug, instructions=POSTURE, status="published"))
    return registry


def adoptions(db, conversation_id: int) -> list[int]:
    return [r["agent_id"] for r in rows(db, "SELECT agent_id FROM agent_adoptions WHERE conversation_id = %s "
                                            "ORDER BY adopted_at, agent_id", (conversation_id,))]


# -- adoption ---------------------------------------------------------------------------------
def test_adoption_once_per_conversation_and_agent(reg, db):
    analyst = reg.agent(AgentRef("analyst")).id
    summary = reg.agent(AgentRef("summary")).id
    reg.set_default("analyst")
    c = reg.start_conversation("acme", "sales").conversation_id
    assert adoptions(db, c) == [analyst]
    for _ in range(3):                       # questions: never counted again
        assert reg.adopt(c) == analyst
    reg.pin(c, "summary")
    reg.pin(c, "analyst")                    # back to one already adopted: no new row
    reg.pin(c, "")                           # no agent: nothing to adopt
    assert sorted(adoptions(db, c)) == sorted([analyst, summary])
    none = reg.start_conversation("acme", "sales", agent_slug="")
    assert adoptions(db, none.conversation_id) == []


def test_a_default_that_changes_is_adopted_at_the_next_question(reg, db):
    reg.set_default("analyst")
    c = reg.start_conversation("acme", "sales").conversation_id
    reg.set_default("summary", tenant="acme")
    assert reg.adopt(c) == reg.agent(AgentRef("summary")).id
    assert len(adoptions(db, c)) == 2


def test_listings_show_uses_of_the_tenants_own_conversations(reg, db):
    reg.set_default("analyst")
    for _ in range(3):
        reg.start_conversation("acme", "sales")
    reg.start_conversation("globex", "lab")
    uses = {a.slug: a.uses for a in reg.agents("acme", "sales")}
    assert uses == {"analyst": 3, "summary": 0}
    assert {a.slug: a.uses for a in reg.agents("globex")}["analyst"] == 1
    assert rows(db, "SELECT uses FROM agent_uses WHERE agent_id = %s", (reg.agent(AgentRef("analyst")).id,)) == [{"uses": 4}]


def test_adopting_never_bumps_the_version_nor_blocks_an_edit(reg, db, db_url):
    reg.set_default("analyst")
    analyst = reg.agent(AgentRef("analyst"))
    with psycopg.connect(db_url) as adopting:
        with adopting.transaction():            # an adoption in flight, uncommitted
            adopting.execute("INSERT INTO conversations (tenant_id) SELECT id FROM tenants WHERE slug = 'acme'")
            with psycopg.connect(db_url) as editor:
                editor.execute("SET lock_timeout = '2s'")
                Registry(editor).update_agent(analyst.id, AgentChanges(instructions="Cite a fonte."), 1)
    assert reg.agent(analyst.id).version == 2   # the edit's bump, and only that
    reg.adopt(rows(db, "SELECT max(id) AS id FROM conversations")[0]["id"])
    assert reg.agent(analyst.id).version == 2


# -- impact previews against what actually happens --------------------------------------------
def effective(db) -> dict:
    return {(r["tenant_id"], r["project_id"], r["slug"]): r["agent_id"]
            for r in rows(db, "SELECT tenant_id, project_id, slug, agent_id FROM effective_agents")}


def defaults(db) -> dict:
    return {(r["tenant_id"], r["project_id"]): (r["default_agent"], r["agent_id"])
            for r in rows(db, "SELECT * FROM effective_default_agent")}


@pytest.fixture
def layered(reg, db):
    reg.create_agent(AgentContent(slug="analyst", instructions=POSTURE, status="published"), tenant="acme")
    reg.create_agent(AgentContent(slug="analyst", instructions=POSTURE, status="published"),
                     tenant="acme", project="sales")
    reg.set_default("analyst")
    reg.set_default("summary", tenant="globex")
    for tenant, project, pin in (("acme", "sales", None), ("acme", "ops", "analyst"), ("acme", None, None),
                                 ("globex", "lab", "analyst"), ("globex", "lab", None)):
        reg.start_conversation(tenant, project, agent_slug=pin)
    return reg


def check_agent_preview(db, preview: list, change) -> None:
    before = effective(db)
    with db.transaction(force_rollback=True):
        change()
        after = effective(db)
    changed = {k: (before.get(k), after.get(k)) for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    predicted = {(r.tenant_id, r.project_id, r.before_slug): (r.before_agent_id, r.after_agent_id)
                 for r in preview if r.kind == "agent"}
    assert predicted == changed


@pytest.mark.parametrize("target", [("analyst", "acme", "sales"), ("analyst", "acme", None), ("analyst", None, None),
                                    ("summary", None, None)])
def test_removal_preview_matches_what_a_delete_does(layered, db, target):
    slug, tenant, project = target
    ref = AgentRef(slug, tenant=tenant, project=project)
    agent_id = layered.agent(ref).id
    preview = layered.impact_of_removal(ref)
    check_agent_preview(db, preview, lambda: db.execute("DELETE FROM agents WHERE id = %s", (agent_id,)))
    check_agent_preview(db, preview, lambda: db.execute("UPDATE agents SET enabled = false WHERE id = %s", (agent_id,)))


def test_removal_preview_reports_orphans_and_counts(layered):
    preview = layered.impact_of_removal(AgentRef("summary"))
    by_kind = {(r.kind, r.tenant_id, r.project_id): r for r in preview}
    globex = layered.scope("globex").tenant_id
    lab = layered.scope("globex", "lab").project_id
    default_row = by_kind[("default", globex, lab)]
    assert default_row.orphaned and default_row.conversations == 1   # the lab conversation following it
    assert ("pin", globex, lab) not in by_kind                        # nobody pinned summary


def test_deleting_an_override_unmasks_the_layer_above(layered):
    preview = layered.impact_of_removal(AgentRef("analyst", tenant="acme", project="sales"))
    [row] = [r for r in preview if r.kind == "agent"]
    assert (row.before_layer, row.after_layer, row.orphaned) == ("project", "tenant", False)
    assert row.conversations == 1


def test_optout_preview_matches_what_an_optout_does(layered, db):
    preview = layered.impact_of_optout("acme", "ops", "analyst")
    assert [r.kind for r in preview if r.kind == "agent"] == ["agent"]
    assert any(r.kind == "pin" and r.conversations == 1 for r in preview)
    check_agent_preview(db, preview, lambda: layered.opt_out("acme", "ops", "analyst"))


@pytest.mark.parametrize("value, tenant, project", [("summary", None, None), ("", "acme", None), (None, "globex", None),
                                                    ("ghost", "acme", "sales"), ("analyst", "globex", "lab")])
def test_default_preview_matches_what_the_change_does(layered, db, value, tenant, project):
    preview = layered.impact_of_default(value, tenant=tenant, project=project)
    before = defaults(db)
    with db.transaction(force_rollback=True):
        layered.set_default(value, tenant=tenant, project=project)
        after = defaults(db)
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    predicted = {(r.tenant_id, r.project_id): ((r.before_slug, r.before_agent_id), (r.after_slug, r.after_agent_id))
                 for r in preview}
    assert predicted == changed
    for r in preview:
        assert r.orphaned == (r.after_slug != "" and r.after_agent_id is None)


def test_previews_write_nothing(layered, db):
    snapshot = (effective(db), defaults(db), rows(db, "SELECT count(*) AS n FROM agent_optouts"))
    layered.impact_of_removal(AgentRef("analyst"))
    layered.impact_of_optout("acme", "ops", "analyst")
    layered.impact_of_default("", tenant="acme")
    assert (effective(db), defaults(db), rows(db, "SELECT count(*) AS n FROM agent_optouts")) == snapshot


# -- notifications -----------------------------------------------------------------------------
def listen(db_url: str) -> psycopg.Connection:
    conn = psycopg.connect(db_url, autocommit=True)
    conn.execute(f"LISTEN {CHANNEL}")
    return conn


def received(conn: psycopg.Connection, wait: float = 1.0) -> list[dict]:
    return [json.loads(n.payload) for n in conn.notifies(timeout=wait, stop_after=50)]


def test_changes_notify_on_commit_only(reg, db, db_url):
    listener = listen(db_url)
    try:
        with db.transaction():
            caixa = reg.create_agent(AgentContent(slug="caixa", instructions=POSTURE), tenant="acme")
            assert received(listener, 0.3) == []                  # not before commit
        [created] = received(listener)
        # A tenant's slug stays out of the payload: any login can LISTEN (docs/security.md).
        assert (created["table"], created["operation"], created["slug"], created["agent_id"], created["version"]) == \
            ("agents", "insert", None, caixa.id, 1)
        assert created["tenant_id"] == reg.scope("acme").tenant_id and created["project_id"] is None

        with db.transaction(force_rollback=True):
            db.execute("UPDATE agents SET note = 'x' WHERE slug = 'caixa'")
        assert received(listener, 0.3) == []                      # rolled back: nothing

        db.execute("UPDATE agents SET instructions = 'Novo texto.' WHERE slug = 'caixa'")   # a console edit
        [edited] = received(listener)
        assert (edited["operation"], edited["version"]) == ("update", 2)

        reg.opt_out("acme", "sales", "analyst")
        reg.set_default("", tenant="acme", project="sales")
        tables = {(c["table"], c["slug"]) for c in received(listener)}
        assert tables == {("agent_optouts", None), ("agent_defaults", None)}
    finally:
        listener.close()


def test_watcher_yields_changes_and_reconnects(reg, db, db_url):
    stop, ready = threading.Event(), threading.Event()
    seen: list = []

    def run() -> None:
        for change in watch_changes(db_url, stop=stop, poll_seconds=0.2, retry_seconds=0.2, ready=ready):
            seen.append(change)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ready.wait(5)
        first = reg.create_agent(AgentContent(slug="first", instructions=POSTURE), tenant="acme")
        wait_for(lambda: any(c.agent_id == first.id for c in seen))
        ready.clear()
        db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                   "WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()")
        assert ready.wait(5)                                       # listening again
        second = reg.create_agent(AgentContent(slug="second", instructions=POSTURE), tenant="acme")
        wait_for(lambda: any(c.agent_id == second.id for c in seen))
        assert RECONNECTED in seen
        assert seen.index(RECONNECTED) < next(i for i, c in enumerate(seen) if c.agent_id == second.id)
    finally:
        stop.set()
        thread.join(5)


def wait_for(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# -- the cache ---------------------------------------------------------------------------------
def test_a_change_in_one_tenant_invalidates_that_tenants_entries_only(reg, db, db_url):
    acme, globex = reg.scope("acme"), reg.scope("globex", "lab")
    cache = ScopeCache(Registry(psycopg.connect(db_url, autocommit=True)), product_rules="REGRAS.")
    stop, ready = threading.Event(), threading.Event()
    cache.follow(watch_changes(db_url, stop=stop, poll_seconds=0.2, ready=ready))
    try:
        assert ready.wait(5)
        first = cache.prompt(acme.tenant_id, None, "analyst")
        cache.catalog(globex.tenant_id, globex.project_id)
        assert cache.cached_scopes() == {(acme.tenant_id, None), (globex.tenant_id, globex.project_id)}

        reg.create_agent(AgentContent(slug="analyst", name="Acme analyst", instructions="Outro texto.",
                                      status="published"), tenant="acme")
        wait_for(lambda: cache.cached_scopes() == {(globex.tenant_id, globex.project_id)})
        second = cache.prompt(acme.tenant_id, None, "analyst")
        assert second.fingerprint != first.fingerprint            # the provider's cache will miss once

        misses = cache.misses
        cache.catalog(globex.tenant_id, globex.project_id)       # still cached
        assert cache.misses == misses

        reg.update_agent(AgentRef("summary"), AgentChanges(note="official change"), 1)
        wait_for(lambda: cache.cached_scopes() == set())          # the official layer: everyone
    finally:
        stop.set()


def test_a_change_of_what_a_scope_has_invalidates_that_tenants_catalogs(reg, db_url):
    """Availability follows a scope's dataset groups: removing one must not leave a cached catalog
    saying an agent that needs it is available (the third hostile-tenant round found it did)."""
    acme = reg.scope("acme", "sales")
    reg.create_agent(AgentContent(slug="stock", instructions=POSTURE, status="published",
                                  requires={"grupos": ["estoque"], "termos": []}), tenant="acme")
    reg.add_names("group", ["estoque"], "acme")
    cache = ScopeCache(Registry(psycopg.connect(db_url, autocommit=True)), product_rules="REGRAS.")
    stop, ready = threading.Event(), threading.Event()
    cache.follow(watch_changes(db_url, stop=stop, poll_seconds=0.2, ready=ready))

    def stock() -> bool:
        return next(e for e in cache.catalog(acme.tenant_id, acme.project_id) if e.slug == "stock").available

    try:
        assert ready.wait(5)
        assert stock() is True
        reg.remove_names("group", ["estoque"], "acme")
        wait_for(lambda: cache.cached_scopes() == set())
        assert stock() is False
        reg.add_names("term", ["margem"], "acme", "sales")        # a project's term: the same
        wait_for(lambda: cache.cached_scopes() == set())
    finally:
        stop.set()
