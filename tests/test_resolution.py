"""docs/design.md's resolution rules, one by one, asked through the console views and through the service functions."""

from __future__ import annotations

import pytest

from tests.helpers import Resolver, agent, conversation, project, rows, set_default, tenant


@pytest.fixture(params=["view", "function"])
def resolve(request, db) -> Resolver:
    return Resolver(db, request.param)


@pytest.fixture
def acme(db):
    """Tenant acme with projects sales and ops; tenant globex with project lab."""
    t = tenant(db, "acme")
    g = tenant(db, "globex")
    return {"t": t, "sales": project(db, t, "sales"), "ops": project(db, t, "ops"),
            "g": g, "lab": project(db, g, "lab")}


def test_most_specific_layer_wins_by_slug(db, resolve, acme):
    official = agent(db, "analyst")
    tenant_row = agent(db, "analyst", acme["t"])
    project_row = agent(db, "analyst", acme["t"], acme["sales"])
    only_official = agent(db, "summary")

    assert resolve.agents(acme["t"], acme["sales"])["analyst"]["agent_id"] == project_row
    assert resolve.agents(acme["t"], acme["sales"])["analyst"]["layer"] == "project"
    assert resolve.agents(acme["t"], acme["ops"])["analyst"]["agent_id"] == tenant_row
    assert resolve.agents(acme["t"])["analyst"]["layer"] == "tenant"
    assert resolve.agents(acme["g"], acme["lab"])["analyst"]["agent_id"] == official
    assert resolve.agents(acme["g"])["analyst"]["layer"] == "official"
    assert resolve.agents(acme["t"], acme["sales"])["summary"]["agent_id"] == only_official


def test_catalog_has_one_row_per_slug_and_nothing_of_other_tenants(db, resolve, acme):
    agent(db, "analyst")
    agent(db, "analyst", acme["t"])
    agent(db, "globex-only", acme["g"])
    agent(db, "lab-only", acme["g"], acme["lab"])
    catalog = resolve.agents(acme["t"], acme["sales"])
    assert sorted(catalog) == ["analyst"]
    assert sorted(resolve.agents(acme["g"], acme["lab"])) == ["analyst", "globex-only", "lab-only"]


def test_every_tenant_and_project_has_its_rows_in_the_view(db, acme):
    agent(db, "analyst")
    scopes = rows(db, "SELECT tenant_id, project_id FROM effective_agents ORDER BY 1, 2 NULLS FIRST")
    expected = sorted([(acme["t"], None), (acme["t"], acme["sales"]), (acme["t"], acme["ops"]),
                       (acme["g"], None), (acme["g"], acme["lab"])], key=lambda s: (s[0], s[1] or 0))
    assert [(r["tenant_id"], r["project_id"]) for r in scopes] == expected


@pytest.mark.parametrize("override", [{"status": "draft"}, {"enabled": False}])
def test_draft_or_disabled_override_leaves_the_row_beneath_visible(db, resolve, acme, override):
    official = agent(db, "analyst")
    agent(db, "analyst", acme["t"], **override)
    agent(db, "analyst", acme["t"], acme["sales"], **override)
    assert resolve.agents(acme["t"])["analyst"]["agent_id"] == official
    assert resolve.agents(acme["t"], acme["sales"])["analyst"]["agent_id"] == official


def test_draft_or_disabled_agents_are_not_candidates(db, resolve, acme):
    agent(db, "drafted", status="draft")
    agent(db, "switched-off", acme["t"], enabled=False)
    assert resolve.agents(acme["t"], acme["sales"]) == {}


def test_opt_out_hides_the_slug_and_nothing_beneath_resurfaces(db, resolve, acme):
    agent(db, "analyst")
    tenant_row = agent(db, "analyst", acme["t"])
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["sales"], tenant_row))
    assert "analyst" not in resolve.agents(acme["t"], acme["sales"])
    # Only that project: its sibling and the tenant-wide scope still see the tenant's row.
    assert resolve.agents(acme["t"], acme["ops"])["analyst"]["agent_id"] == tenant_row
    assert resolve.agents(acme["t"])["analyst"]["agent_id"] == tenant_row


def test_opt_out_of_an_official_agent(db, resolve, acme):
    official = agent(db, "analyst")
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["sales"], official))
    assert "analyst" not in resolve.agents(acme["t"], acme["sales"])
    assert "analyst" in resolve.agents(acme["t"], acme["ops"])


def test_an_override_created_after_an_opt_out_is_a_new_agent_and_shows(db, resolve, acme):
    official = agent(db, "analyst")
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["sales"], official))
    newer = agent(db, "analyst", acme["t"])
    assert resolve.agents(acme["t"], acme["sales"])["analyst"]["agent_id"] == newer


def test_default_inheritance_null_versus_empty_across_three_layers(db, resolve, acme):
    agent(db, "analyst")
    agent(db, "summary")
    set_default(db, "analyst")                                   # official layer
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["source_layer"], d["orphaned"]) == ("analyst", "official", False)

    set_default(db, None, acme["t"])                             # NULL: inherit
    assert resolve.default(acme["t"], acme["sales"])["source_layer"] == "official"

    set_default(db, "", acme["t"])                               # '': explicitly none
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["source_layer"], d["agent_id"], d["orphaned"]) == ("", "tenant", None, False)
    assert resolve.default(acme["g"], acme["lab"])["default_agent"] == "analyst"  # other tenants untouched

    set_default(db, "summary", acme["t"], acme["sales"])         # project layer wins
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["source_layer"]) == ("summary", "project")
    assert resolve.default(acme["t"], acme["ops"])["default_agent"] == ""

    set_default(db, None, acme["t"], acme["sales"])              # back to inheriting: tenant's ''
    assert resolve.default(acme["t"], acme["sales"])["source_layer"] == "tenant"


def test_no_layer_sets_a_default(db, resolve, acme):
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["source_layer"], d["agent_id"], d["orphaned"]) == ("", None, None, False)


def test_default_slug_resolves_in_the_asking_scope(db, resolve, acme):
    official = agent(db, "analyst")
    override = agent(db, "analyst", acme["t"])
    set_default(db, "analyst")
    assert resolve.default(acme["t"], acme["sales"])["agent_id"] == override
    assert resolve.default(acme["g"], acme["lab"])["agent_id"] == official


def test_orphaned_default_is_reported_not_an_error(db, resolve, acme):
    set_default(db, "ghost", acme["t"])
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["agent_id"], d["orphaned"]) == ("ghost", None, True)


def test_default_hidden_by_an_opt_out_is_orphaned(db, resolve, acme):
    official = agent(db, "analyst")
    set_default(db, "analyst")
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["sales"], official))
    assert resolve.default(acme["t"], acme["sales"])["orphaned"] is True
    assert resolve.default(acme["t"], acme["ops"])["orphaned"] is False


def test_the_three_conversation_states(db, resolve, acme):
    analyst = agent(db, "analyst")
    summary = agent(db, "summary")
    set_default(db, "analyst")
    following = conversation(db, acme["t"], acme["sales"], None)
    without = conversation(db, acme["t"], acme["sales"], "")
    pinned = conversation(db, acme["t"], acme["sales"], "summary")

    c = resolve.conversation(following)
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("default", "analyst", analyst, False)
    c = resolve.conversation(without)
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("none", None, None, False)
    c = resolve.conversation(pinned)
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("pinned", "summary", summary, False)
    assert (c["tenant_id"], c["project_id"]) == (acme["t"], acme["sales"])

    # A change of default moves the following conversation only.
    set_default(db, "summary", acme["t"])
    assert resolve.conversation(following)["agent_id"] == summary
    assert resolve.conversation(pinned)["agent_id"] == summary
    set_default(db, "analyst", acme["t"])
    assert resolve.conversation(following)["agent_id"] == analyst
    assert resolve.conversation(pinned)["agent_id"] == summary
    assert resolve.conversation(without)["agent_id"] is None


def test_tenant_wide_conversation(db, resolve, acme):
    override = agent(db, "analyst", acme["t"])
    agent(db, "analyst", acme["t"], acme["sales"])
    c = resolve.conversation(conversation(db, acme["t"], None, "analyst"))
    assert (c["project_id"], c["agent_id"]) == (None, override)


def test_orphaned_pin_is_reported(db, resolve, acme):
    c = resolve.conversation(conversation(db, acme["t"], acme["sales"], "ghost"))
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("pinned", "ghost", None, True)


def test_following_an_orphaned_default(db, resolve, acme):
    set_default(db, "ghost")
    c = resolve.conversation(conversation(db, acme["t"], acme["sales"], None))
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("default", "ghost", None, True)


def test_following_an_explicit_empty_default(db, resolve, acme):
    agent(db, "analyst")
    set_default(db, "analyst")
    set_default(db, "", acme["t"], acme["sales"])
    c = resolve.conversation(conversation(db, acme["t"], acme["sales"], None))
    assert (c["mode"], c["slug"], c["agent_id"], c["orphaned"]) == ("default", None, None, False)


def test_deleting_an_agent_orphans_what_named_it_without_an_error(db, resolve, acme):
    official = agent(db, "analyst")
    override = agent(db, "analyst", acme["t"])
    set_default(db, "analyst", acme["t"])
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["ops"], override))
    pinned = conversation(db, acme["t"], acme["sales"], "analyst")

    db.execute("DELETE FROM agents WHERE id = %s", (override,))     # unmasks the official row
    assert resolve.conversation(pinned)["agent_id"] == official
    assert resolve.agents(acme["t"], acme["ops"])["analyst"]["agent_id"] == official  # opt-out went with it

    db.execute("DELETE FROM agents WHERE id = %s", (official,))
    c = resolve.conversation(pinned)
    assert (c["agent_id"], c["orphaned"]) == (None, True)
    d = resolve.default(acme["t"], acme["sales"])
    assert (d["default_agent"], d["agent_id"], d["orphaned"]) == ("analyst", None, True)


def test_disabling_an_agent_orphans_a_pin(db, resolve, acme):
    official = agent(db, "analyst")
    pinned = conversation(db, acme["t"], acme["sales"], "analyst")
    db.execute("UPDATE agents SET enabled = false WHERE id = %s", (official,))
    assert resolve.conversation(pinned)["orphaned"] is True


def test_unknown_scope_yields_nothing(db, acme):
    assert rows(db, "SELECT * FROM resolve_agents(999, NULL)") == []
    assert rows(db, "SELECT * FROM resolve_default_agent(999, NULL)") == []
    # A project of another tenant is not a scope of this tenant.
    agent(db, "analyst")
    assert rows(db, "SELECT * FROM resolve_agents(%s, %s)", (acme["t"], acme["lab"])) == []
    assert rows(db, "SELECT * FROM resolve_conversation_agent(999)") == []


def test_single_slug_resolution_agrees_with_the_catalog(db, acme):
    agent(db, "a")
    agent(db, "a", acme["t"], status="draft")
    agent(db, "b", acme["t"])
    b_project = agent(db, "b", acme["t"], acme["sales"])
    agent(db, "c")
    c_tenant = agent(db, "c", acme["t"])
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (acme["sales"], c_tenant))
    del b_project
    for project_id in (None, acme["sales"], acme["ops"]):
        catalog = rows(db, "SELECT * FROM resolve_agents(%s, %s)", (acme["t"], project_id))
        for slug in ("a", "b", "c", "missing"):
            single = rows(db, "SELECT * FROM resolve_agent(%s, %s, %s)", (acme["t"], project_id, slug))
            assert single == [r for r in catalog if r["slug"] == slug], (project_id, slug)


def test_view_and_function_columns_match(db):
    def columns(relation_query: str) -> list[str]:
        with db.cursor() as cur:
            cur.execute(relation_query)
            return [c.name for c in cur.description]

    # The views are the functions plus the tenant's and project's slugs at the end (for consoles).
    slugs = ["tenant_slug", "project_slug"]
    assert columns("SELECT * FROM effective_agents LIMIT 0") == columns("SELECT * FROM resolve_agents(1, NULL) LIMIT 0") + slugs
    assert columns("SELECT * FROM effective_default_agent LIMIT 0") == columns("SELECT * FROM resolve_default_agent(1, NULL) LIMIT 0") + slugs
    assert columns("SELECT * FROM conversation_agents LIMIT 0") == columns("SELECT * FROM resolve_conversation_agent(1) LIMIT 0") + slugs
    assert columns("SELECT * FROM effective_agents LIMIT 0") == [
        "tenant_id", "project_id", "slug", "agent_id", "layer", "version", "name", "description",
        "when_to_use", "requires", "instructions", "available", "missing"] + slugs
    assert columns("SELECT * FROM effective_default_agent LIMIT 0") == [
        "tenant_id", "project_id", "default_agent", "source_layer", "agent_id", "orphaned"] + slugs
    assert columns("SELECT * FROM conversation_agents LIMIT 0") == [
        "conversation_id", "tenant_id", "project_id", "mode", "slug", "agent_id", "orphaned",
        "unavailable", "missing"] + slugs
