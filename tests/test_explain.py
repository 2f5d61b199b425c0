"""docs/design.md, "Resolution rules", rule 8: every answer explained — explain_agent's verdict for
each layer's row, the agent_explanations view, and explain_default_agent's chain."""

from __future__ import annotations

import pytest

from tests.helpers import agent, project, rows, set_default, tenant, vocabulary


@pytest.fixture
def acme(db):
    t = tenant(db, "acme")
    return {"t": t, "sales": project(db, t, "sales"), "ops": project(db, t, "ops"), "g": tenant(db, "globex")}


@pytest.fixture(params=["function", "view"])
def explain(request, db):
    def ask(tenant_id: int, project_id: int | None, slug: str) -> list[tuple]:
        if request.param == "function":
            result = rows(db, "SELECT * FROM explain_agent(%s, %s, %s)", (tenant_id, project_id, slug))
        else:
            result = rows(db, "SELECT * FROM agent_explanations WHERE tenant_id = %s "
                              "AND project_id IS NOT DISTINCT FROM %s AND slug = %s", (tenant_id, project_id, slug))
        return [(r["layer"], r["agent_id"], r["verdict"]) for r in result]
    return ask


def _optout(db, project_id: int, agent_id: int) -> None:
    db.execute("INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)", (project_id, agent_id))


def _effective(db, tenant_id, project_id, slug):
    found = rows(db, "SELECT agent_id FROM resolve_agent(%s, %s, %s)", (tenant_id, project_id, slug))
    return found[0]["agent_id"] if found else None


def test_the_most_specific_candidate_is_effective_and_shadows_the_rest(db, explain, acme):
    official = agent(db, "analyst")
    mine = agent(db, "analyst", acme["t"])
    ours = agent(db, "analyst", acme["t"], acme["sales"])
    assert explain(acme["t"], acme["sales"], "analyst") == [
        ("project", ours, "effective"), ("tenant", mine, "shadowed"), ("official", official, "shadowed")]
    assert explain(acme["t"], acme["ops"], "analyst") == [("tenant", mine, "effective"), ("official", official, "shadowed")]
    assert _effective(db, acme["t"], acme["sales"], "analyst") == ours


@pytest.mark.parametrize("override, verdict", [({"status": "draft"}, "draft"), ({"enabled": False}, "disabled"),
                                               ({"status": "draft", "enabled": False}, "draft")])
def test_a_draft_or_disabled_row_loses_to_the_one_beneath(db, explain, acme, override, verdict):
    official = agent(db, "analyst")
    mine = agent(db, "analyst", acme["t"], **override)
    assert explain(acme["t"], None, "analyst") == [("tenant", mine, verdict), ("official", official, "effective")]
    assert _effective(db, acme["t"], None, "analyst") == official


def test_nothing_effective_when_every_row_is_a_draft(db, explain, acme):
    draft = agent(db, "analyst", acme["t"], status="draft")
    assert explain(acme["t"], acme["sales"], "analyst") == [("tenant", draft, "draft")]
    assert _effective(db, acme["t"], acme["sales"], "analyst") is None


def test_an_opt_out_of_the_winner_hides_it_and_what_lies_beneath(db, explain, acme):
    official = agent(db, "analyst")
    mine = agent(db, "analyst", acme["t"])
    _optout(db, acme["sales"], mine)
    assert explain(acme["t"], acme["sales"], "analyst") == [
        ("tenant", mine, "hidden_by_optout"), ("official", official, "beneath_optout")]
    assert _effective(db, acme["t"], acme["sales"], "analyst") is None
    # Only in that project.
    assert explain(acme["t"], acme["ops"], "analyst") == [("tenant", mine, "effective"), ("official", official, "shadowed")]
    opted = rows(db, "SELECT layer, opted_out FROM explain_agent(%s, %s, 'analyst')", (acme["t"], acme["sales"]))
    assert opted == [{"layer": "tenant", "opted_out": True}, {"layer": "official", "opted_out": False}]


def test_an_override_above_an_opted_out_row_is_effective(db, explain, acme):
    """An opt-out names a row: the project's own row created afterwards shows, and the opted-out
    official row beneath it is merely shadowed."""
    official = agent(db, "analyst")
    _optout(db, acme["sales"], official)
    assert explain(acme["t"], acme["sales"], "analyst") == [("official", official, "hidden_by_optout")]
    ours = agent(db, "analyst", acme["t"], acme["sales"])
    assert explain(acme["t"], acme["sales"], "analyst") == [("project", ours, "effective"), ("official", official, "shadowed")]
    assert _effective(db, acme["t"], acme["sales"], "analyst") == ours


def test_a_draft_beneath_an_opt_out_says_draft(db, explain, acme):
    official = agent(db, "analyst", status="draft")
    mine = agent(db, "analyst", acme["t"])
    _optout(db, acme["sales"], mine)
    assert explain(acme["t"], acme["sales"], "analyst") == [("tenant", mine, "hidden_by_optout"), ("official", official, "draft")]


def test_an_opted_out_row_that_is_disabled_lets_the_row_beneath_win(db, explain, acme):
    official = agent(db, "analyst")
    mine = agent(db, "analyst", acme["t"], enabled=False)
    _optout(db, acme["sales"], mine)
    assert explain(acme["t"], acme["sales"], "analyst") == [("tenant", mine, "disabled"), ("official", official, "effective")]
    assert _effective(db, acme["t"], acme["sales"], "analyst") == official


def test_availability_is_reported_and_changes_no_verdict(db, acme):
    official = agent(db, "analyst")
    mine = agent(db, "analyst", acme["t"], requires={"grupos": ["financeiro"]})
    vocabulary(db, "group", acme["t"], acme["ops"], "financeiro")
    sales = rows(db, "SELECT agent_id, verdict, available, missing FROM explain_agent(%s, %s, 'analyst')", (acme["t"], acme["sales"]))
    assert sales == [{"agent_id": mine, "verdict": "effective", "available": False, "missing": {"groups": ["financeiro"], "terms": []}},
                     {"agent_id": official, "verdict": "shadowed", "available": True, "missing": {"groups": [], "terms": []}}]
    ops = rows(db, "SELECT verdict, available FROM explain_agent(%s, %s, 'analyst')", (acme["t"], acme["ops"]))
    assert ops == [{"verdict": "effective", "available": True}, {"verdict": "shadowed", "available": True}]


def test_other_tenants_rows_and_unknown_scopes_explain_nothing(db, explain, acme):
    agent(db, "theirs", acme["g"])
    agent(db, "analyst")
    assert explain(acme["t"], acme["sales"], "theirs") == []
    assert explain(acme["g"], acme["sales"], "analyst") == []  # a project outside the tenant
    assert explain(acme["t"], acme["sales"], "nobody") == []


def test_the_view_filters_by_slugs(db, acme):
    agent(db, "analyst")
    found = rows(db, "SELECT tenant_slug, project_slug, slug, verdict FROM agent_explanations "
                     "WHERE tenant_slug = 'acme' AND project_slug = 'sales'")
    assert found == [{"tenant_slug": "acme", "project_slug": "sales", "slug": "analyst", "verdict": "effective"}]


def _chain(db, tenant_id, project_id):
    return [(r["layer"], r["default_agent"], r["decides"], r["orphaned"])
            for r in rows(db, "SELECT * FROM explain_default_agent(%s, %s)", (tenant_id, project_id))]


def test_the_default_chain_names_the_deciding_layer(db, acme):
    agent(db, "analyst")
    set_default(db, "analyst")
    set_default(db, None, acme["t"])            # a row that inherits
    assert _chain(db, acme["t"], acme["sales"]) == [("project", None, False, None), ("tenant", None, False, None),
                                                    ("official", "analyst", True, False)]
    set_default(db, "", acme["t"], acme["sales"])
    assert _chain(db, acme["t"], acme["sales"])[0] == ("project", "", True, False)
    assert [r[0] for r in _chain(db, acme["t"], None)] == ["tenant", "official"]


def test_the_default_chain_reports_an_orphan_and_an_unavailable_default(db, acme):
    set_default(db, "gone", acme["t"])
    assert _chain(db, acme["t"], acme["sales"])[1] == ("tenant", "gone", True, True)
    agent(db, "caixa", acme["t"], requires={"termos": ["receita"]})
    set_default(db, "caixa", acme["t"])
    deciding = [r for r in rows(db, "SELECT * FROM explain_default_agent(%s, %s)", (acme["t"], acme["sales"])) if r["decides"]]
    assert [(r["layer"], r["orphaned"], r["available"], r["missing"]) for r in deciding] == [
        ("tenant", False, False, {"groups": [], "terms": ["receita"]})]
