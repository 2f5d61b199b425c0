"""Tenant isolation enforced by PostgreSQL, seen from a login that is only registry_app.

Each check is also run with the protection removed (tests at the end), to show it would fail.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from registry.api import AgentRef, Registry
from registry.errors import NotAllowed, NotFound
from registry.models import AgentChanges, AgentContent
from tests.helpers import agent, conversation, project, set_default, tenant

APP_LOGIN = "registry_test_app"
TENANT_TABLES = ["tenants", "projects", "agents", "agent_optouts", "agent_defaults", "conversations", "agent_versions",
                 "conventions", "convention_versions"]


@pytest.fixture
def world(db) -> dict:
    """Two tenants with a row of every kind each, built as the superuser."""
    db.execute(f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_LOGIN}') THEN
            CREATE ROLE {APP_LOGIN} LOGIN IN ROLE registry_app, registry_service;
        END IF; END $$""")
    ids: dict = {}
    official = agent(db, "analyst")
    agent(db, "summary")
    set_default(db, "analyst")
    for name in ("a", "b"):
        t = tenant(db, f"tenant-{name}")
        p = project(db, t, f"project-{name}")
        own = agent(db, f"only-{name}", t, instructions=f"Segredo de {name}.")
        agent(db, f"project-only-{name}", t, p)
        db.execute("UPDATE agents SET instructions = instructions || ' v2' WHERE id = %s", (own,))  # history
        db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (p, official))
        set_default(db, f"only-{name}", t)
        convention = db.execute("INSERT INTO conventions (tenant_id, project_id, directory, body) "
                                "VALUES (%s, %s, 'src', %s) RETURNING id", (t, p, f"Convenção de {name}.")).fetchone()[0]
        db.execute("UPDATE conventions SET body = body || ' v2' WHERE id = %s", (convention,))  # history
        ids[name] = {"tenant": t, "project": p, "agent": own,
                     "conversation": conversation(db, t, p, None)}
    ids["official"] = official
    return ids


@pytest.fixture
def app_url(db, world) -> str:
    info = db.info
    return f"postgresql://{APP_LOGIN}@{info.host}:{info.port}/{info.dbname}"


@contextlib.contextmanager
def as_tenant(app_url: str, tenant_id: object) -> Iterator[psycopg.Connection]:
    """A registry_app session inside one transaction with registry.tenant_id set (None: unset)."""
    with psycopg.connect(app_url, row_factory=dict_row) as conn, conn.transaction():
        if tenant_id is not None:
            conn.execute("SELECT set_config('registry.tenant_id', %s, true)", (str(tenant_id),))
        yield conn


def visible(conn: psycopg.Connection, table: str) -> list[dict]:
    return conn.execute(f"SELECT * FROM {table}").fetchall()


def tenants_seen(conn: psycopg.Connection) -> set:
    seen = set()
    for table, column in [("tenants", "id"), ("projects", "tenant_id"), ("agents", "tenant_id"),
                          ("agent_optouts", "tenant_id"), ("agent_defaults", "tenant_id"),
                          ("conversations", "tenant_id"), ("conventions", "tenant_id"),
                          ("effective_conventions", "tenant_id")]:
        seen |= {r[column] for r in visible(conn, table)}
    return seen


def test_a_sees_its_own_rows_and_the_official_layer_only(app_url, world):
    with as_tenant(app_url, world["a"]["tenant"]) as conn:
        assert tenants_seen(conn) == {world["a"]["tenant"], None}
        slugs = {r["slug"] for r in visible(conn, "agents")}
        assert slugs == {"analyst", "summary", "only-a", "project-only-a"}
        history = {r["agent_id"] for r in visible(conn, "agent_versions")}
        assert history == {world["a"]["agent"]}


def test_updates_and_deletes_of_bs_rows_touch_nothing(app_url, world, db):
    b = world["b"]
    official = db.execute("SELECT id FROM agents WHERE tenant_id IS NULL LIMIT 1").fetchone()[0]
    with as_tenant(app_url, world["a"]["tenant"]) as conn:
        for statement, params in [
            ("UPDATE agents SET name = 'x' WHERE id = %s", (b["agent"],)),
            ("UPDATE conversations SET agent_slug = '' WHERE id = %s", (b["conversation"],)),
            ("UPDATE agent_defaults SET default_agent = '' WHERE tenant_id = %s", (b["tenant"],)),
            ("UPDATE agents SET name = 'x' WHERE tenant_id IS NULL", ()),  # the official layer
        ]:
            assert conn.execute(statement, params).rowcount == 0, statement
        # Deletes go through functions (no DELETE grant: it would allow LOCK TABLE); B's rows
        # and the official layer are out of their reach as they were out of DELETE's.
        for call, params in [
            ("SELECT delete_agent(%s)", (b["agent"],)),
            ("SELECT delete_agent(%s)", (official,)),
            ("SELECT delete_conversation(%s)", (b["conversation"],)),
            ("SELECT delete_project(%s)", (b["project"],)),
            ("SELECT delete_agent_default(%s)", (b["tenant"],)),
            ("SELECT delete_agent_default(NULL)", ()),
        ]:
            assert list(conn.execute(call, params).fetchone().values()) == [False], call
    assert db.execute("SELECT name FROM agents WHERE id = %s", (b["agent"],)).fetchone() == ("only-b",)
    assert db.execute("SELECT count(*) FROM agents WHERE id = %s", (official,)).fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM projects WHERE id = %s", (b["project"],)).fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM conversations WHERE id = %s", (b["conversation"],)).fetchone() == (1,)


@pytest.mark.parametrize("statement", [
    "INSERT INTO agents (tenant_id, slug) VALUES ({b}, 'planted')",
    "INSERT INTO conversations (tenant_id) VALUES ({b})",
    "INSERT INTO agent_defaults (tenant_id, default_agent) VALUES ({b}, 'x')",
    "INSERT INTO projects (tenant_id, slug) VALUES ({b}, 'planted')",
    "UPDATE agents SET tenant_id = {b} WHERE id = {a_agent}",
    "UPDATE conversations SET tenant_id = {b} WHERE id = {a_conversation}",
    "INSERT INTO agents (slug) VALUES ('official-by-app')",           # the official layer
    "UPDATE agents SET tenant_id = NULL WHERE id = {a_agent}",
])
def test_writing_into_b_or_the_official_layer_is_refused(app_url, world, statement):
    a = world["a"]
    sql = statement.format(b=world["b"]["tenant"], a_agent=a["agent"], a_conversation=a["conversation"])
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with as_tenant(app_url, a["tenant"]) as conn:
            conn.execute(sql)


def test_opting_out_in_bs_project_reveals_nothing(app_url, world):
    with pytest.raises(psycopg.Error) as caught:
        with as_tenant(app_url, world["a"]["tenant"]) as conn:
            conn.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)",
                         (world["b"]["project"], world["official"]))
    assert "does not exist" in str(caught.value) and "project-b" not in str(caught.value)


@pytest.mark.parametrize("setting", [None, "", "abc", "0", "-1", "1; DROP TABLE agents", "99999999999999999999"])
def test_no_usable_tenant_shows_nothing_and_writes_nothing(app_url, world, setting):
    with as_tenant(app_url, setting) as conn:
        for table in TENANT_TABLES + ["effective_agents", "effective_default_agent", "conversation_agents",
                                      "effective_conventions"]:
            assert visible(conn, table) == [], table
        assert conn.execute("SELECT * FROM resolve_agents(%s, NULL)", (world["a"]["tenant"],)).fetchall() == []
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with as_tenant(app_url, setting) as conn:
            conn.execute("INSERT INTO conversations (tenant_id) VALUES (%s)", (world["a"]["tenant"],))


def test_resolution_for_a_is_what_admin_sees_for_a_and_nothing_of_b(app_url, world, db):
    a = world["a"]
    queries = [
        ("SELECT * FROM effective_agents WHERE tenant_id = %s ORDER BY project_id NULLS FIRST, slug", (a["tenant"],)),
        ("SELECT * FROM effective_default_agent WHERE tenant_id = %s ORDER BY project_id NULLS FIRST", (a["tenant"],)),
        ("SELECT * FROM conversation_agents WHERE tenant_id = %s ORDER BY conversation_id", (a["tenant"],)),
        ("SELECT * FROM resolve_agents(%s, %s)", (a["tenant"], a["project"])),
        ("SELECT * FROM resolve_default_agent(%s, %s)", (a["tenant"], a["project"])),
        ("SELECT * FROM resolve_conversation_agent(%s)", (a["conversation"],)),
    ]
    with db.cursor(row_factory=dict_row) as admin:
        expected = [admin.execute(q, p).fetchall() for q, p in queries]
    with as_tenant(app_url, a["tenant"]) as conn:
        assert [conn.execute(q, p).fetchall() for q, p in queries] == expected
        everything = (visible(conn, "effective_agents") + visible(conn, "effective_default_agent")
                      + visible(conn, "conversation_agents"))
        assert {r["tenant_id"] for r in everything} == {a["tenant"]}
        b = world["b"]
        assert conn.execute("SELECT * FROM resolve_agents(%s, %s)", (b["tenant"], b["project"])).fetchall() == []
        assert conn.execute("SELECT * FROM resolve_conversation_agent(%s)", (b["conversation"],)).fetchall() == []


def test_a_pooled_connection_forgets_the_tenant_after_commit_and_rollback(app_url, world):
    with ConnectionPool(app_url, min_size=1, max_size=1, open=True) as pool:
        scoped = Registry(pool).for_tenant(world["a"]["tenant"], role=None)
        assert {a.slug for a in scoped.agents(world["a"]["tenant"])} >= {"only-a"}     # commit
        with pytest.raises(RuntimeError), scoped.transaction() as conn:              # rollback
            assert conn.execute("SELECT count(*) FROM agents").fetchone()[0] > 0
            raise RuntimeError("rolled back")
        for _ in range(2):
            with pool.connection() as conn:
                assert conn.execute("SELECT current_setting('registry.tenant_id', true)").fetchone()[0] in ("", None)
                assert conn.execute("SELECT count(*) FROM agents").fetchone()[0] == 0
                assert conn.execute("SELECT count(*) FROM effective_agents").fetchone()[0] == 0


def test_both_tenants_create_support_and_errors_name_nothing_of_the_other(app_url, world):
    a, b = world["a"], world["b"]
    with psycopg.connect(app_url) as conn_a, psycopg.connect(app_url) as conn_b:
        reg_a = Registry(conn_a).for_tenant(a["tenant"], role=None)
        reg_b = Registry(conn_b).for_tenant(b["tenant"], role=None)
        for reg, t in ((reg_a, a), (reg_b, b)):
            created = reg.create_agent(AgentContent(slug="support", instructions="Seja cordial."), tenant=t["tenant"])
            assert created.tenant_id == t["tenant"]
        messages = []
        for attempt in (lambda: reg_a.create_agent(AgentContent(slug="support", instructions="x"), tenant=b["tenant"]),
                        lambda: reg_a.agent(AgentRef("support", tenant=b["tenant"])),
                        lambda: reg_a.update_agent(b["agent"], AgentChanges(name="x"), 1),
                        lambda: reg_a.create_agent(AgentContent(slug="official-try", instructions="x"))):
            with pytest.raises((NotAllowed, NotFound)) as caught:
                attempt()
            messages.append(str(caught.value))
    for message in messages:
        assert "tenant-b" not in message and "project-b" not in message and "only-b" not in message, message
    assert any(m.startswith("not allowed in this tenant") for m in messages)


def test_catalog_every_tenant_table_forces_row_level_security(db):
    flags = dict(db.execute("""SELECT relname, relrowsecurity AND relforcerowsecurity FROM pg_class
                                WHERE relname = ANY(%s)""", (TENANT_TABLES,)).fetchall())
    assert flags == {t: True for t in TENANT_TABLES}


def test_catalog_every_view_is_security_invoker_and_no_definer_function_leaks(db):
    views = db.execute("""SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = 'public' AND c.relkind = 'v'""").fetchall()
    assert views and all("security_invoker=true" in (opts or []) for _, opts in views), views
    definers = db.execute("""SELECT p.proname, p.proconfig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                              WHERE n.nspname = 'public' AND p.prosecdef""").fetchall()
    assert all(config and any(c.startswith("search_path=") for c in config) for _, config in definers), definers


def test_catalog_the_app_role_is_unprivileged_and_owns_nothing(db):
    role = db.execute("SELECT rolsuper, rolbypassrls, rolcreaterole, rolcreatedb FROM pg_roles "
                      "WHERE rolname = 'registry_app'").fetchone()
    assert role == (False, False, False, False)
    owned = db.execute("""SELECT count(*) FROM pg_class WHERE relowner = 'registry_app'::regrole""").fetchone()[0]
    owned += db.execute("SELECT count(*) FROM pg_proc WHERE proowner = 'registry_app'::regrole").fetchone()[0]
    assert owned == 0
    owners = {r[0] for r in db.execute("SELECT relowner::regrole::text FROM pg_class WHERE relname = ANY(%s)",
                                       (TENANT_TABLES,)).fetchall()}
    assert owners == {"registry_owner"}


def test_a_cheap_leaky_function_in_a_predicate_sees_only_as_rows(app_url, world, db):
    db.execute("""CREATE FUNCTION leak(text) RETURNS boolean LANGUAGE plpgsql COST 0.0000001 AS
                  $$ BEGIN RAISE NOTICE 'leak:%', $1; RETURN true; END $$""")
    seen: list[str] = []
    with as_tenant(app_url, world["a"]["tenant"]) as conn:
        conn.add_notice_handler(lambda notice: seen.append(notice.message_primary))
        conn.execute("SELECT * FROM agents WHERE leak(instructions)").fetchall()
        conn.execute("SELECT * FROM effective_agents WHERE leak(instructions)").fetchall()
        conn.execute("SELECT * FROM conversations WHERE leak(title || tenant_id::text)").fetchall()
    assert seen and not any("Segredo de b" in s for s in seen), seen


# -- the checks above, with the protection removed: each must then see B ---------------------
@pytest.mark.parametrize("table", ["projects", "agents", "agent_optouts", "agent_defaults", "conversations"])
def test_without_row_level_security_the_visibility_check_fails(app_url, world, db, table):
    db.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    with as_tenant(app_url, world["a"]["tenant"]) as conn:
        assert world["b"]["tenant"] in tenants_seen(conn)


def test_without_the_app_policy_the_official_write_check_fails(app_url, world, db):
    db.execute("DROP POLICY agents_app_insert ON agents")
    db.execute("DROP POLICY agents_app_update ON agents")
    db.execute("CREATE POLICY agents_app_own ON agents FOR ALL TO registry_app USING (true) WITH CHECK (true)")
    with as_tenant(app_url, world["a"]["tenant"]) as conn:
        conn.execute("INSERT INTO agents (slug) VALUES ('official-by-app')")  # no longer refused
        assert conn.execute("UPDATE agents SET enabled = false WHERE id = %s", (world["b"]["agent"],)).rowcount == 1


def test_with_a_casting_policy_the_unset_case_would_error(app_url, world, db):
    """What fail-closed guards against: a naive ::bigint cast raises on '' instead of hiding rows."""
    db.execute("DROP POLICY conversations_app_read ON conversations")
    db.execute("""CREATE POLICY conversations_app_read ON conversations FOR SELECT TO registry_app
                  USING (tenant_id = current_setting('registry.tenant_id', true)::bigint)""")
    with pytest.raises(psycopg.errors.InvalidTextRepresentation):
        with as_tenant(app_url, "") as conn:
            visible(conn, "conversations")
