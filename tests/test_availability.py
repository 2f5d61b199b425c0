"""docs/design.md, "Resolution rules", rule 7: what a scope has (dataset groups, glossary terms),
and availability reported on the winner — through the console views and the service functions."""

from __future__ import annotations

import psycopg
import pytest

from tests.helpers import Resolver, agent, conversation, project, rows, set_default, tenant, vocabulary

NOTHING_MISSING = {"groups": [], "terms": []}


@pytest.fixture(params=["view", "function"])
def resolve(request, db) -> Resolver:
    return Resolver(db, request.param)


@pytest.fixture
def acme(db):
    """acme with projects financeiro (has group 'financeiro') and vendas (has not); globex."""
    t = tenant(db, "acme")
    scopes = {"t": t, "fin": project(db, t, "financeiro"), "sales": project(db, t, "vendas"), "g": tenant(db, "globex")}
    vocabulary(db, "group", t, scopes["fin"], "financeiro")
    return scopes


def test_an_agent_requiring_nothing_is_available_everywhere(db, resolve, acme):
    agent(db, "analyst")
    row = resolve.agents(acme["t"], acme["sales"])["analyst"]
    assert (row["available"], row["missing"]) == (True, NOTHING_MISSING)


def test_project_groups_add_to_the_tenants(db, resolve, acme):
    vocabulary(db, "group", acme["t"], None, "vendas")
    vocabulary(db, "term", acme["t"], None, "receita")
    agent(db, "caixa", acme["t"], requires={"grupos": ["financeiro", "vendas"], "termos": ["receita"]})
    fin = resolve.agents(acme["t"], acme["fin"])["caixa"]
    sales = resolve.agents(acme["t"], acme["sales"])["caixa"]
    tenant_wide = resolve.agents(acme["t"])["caixa"]
    assert (fin["available"], fin["missing"]) == (True, NOTHING_MISSING)
    assert (sales["available"], sales["missing"]) == (False, {"groups": ["financeiro"], "terms": []})
    # The tenant-wide scope has the tenant's names only, never a project's.
    assert (tenant_wide["available"], tenant_wide["missing"]) == (False, {"groups": ["financeiro"], "terms": []})


def test_missing_lists_groups_and_terms_in_the_order_required(db, resolve, acme):
    agent(db, "caixa", acme["t"], requires={"grupos": ["zeta", "financeiro", "alfa"], "termos": ["margem", "ebitda"]})
    row = resolve.agents(acme["t"], acme["fin"])["caixa"]
    assert row["missing"] == {"groups": ["zeta", "alfa"], "terms": ["margem", "ebitda"]}


def test_english_keys_are_requirements_too(db, resolve, acme):
    agent(db, "caixa", acme["t"], requires={"groups": ["financeiro"], "terms": ["receita"]})
    assert resolve.agents(acme["t"], acme["fin"])["caixa"]["missing"] == {"groups": [], "terms": ["receita"]}


@pytest.mark.parametrize("required, matches", [
    ("FINANCEIRO", True),            # case folds
    ("Financeiro", True),
    ("financas", False),             # no synonym folding: the seed's own example
    ("finánceiro", False),           # no accent folding
    ("financeiro ", False),          # nothing trimmed
])
def test_names_match_after_case_folding_only(db, resolve, acme, required, matches):
    agent(db, "caixa", acme["t"], requires={"grupos": [required]})
    assert resolve.agents(acme["t"], acme["fin"])["caixa"]["available"] is matches


def test_names_match_after_nfc(db, resolve, acme):
    vocabulary(db, "term", acme["t"], None, "Ação")                      # composed
    agent(db, "caixa", acme["t"], requires={"termos": ["ac\u0327a\u0303o"]})  # decomposed, lower case
    assert resolve.agents(acme["t"], acme["sales"])["caixa"]["available"] is True


def test_an_unavailable_winner_stays_the_winner(db, resolve, acme):
    """The tenant's override needs a group vendas lacks: it still wins there, reported
    unavailable; the official row beneath, which would be available, does not resurface."""
    agent(db, "analyst")
    override = agent(db, "analyst", acme["t"], requires={"grupos": ["financeiro"]})
    row = resolve.agents(acme["t"], acme["sales"])["analyst"]
    assert (row["agent_id"], row["layer"], row["available"]) == (override, "tenant", False)
    assert row["missing"] == {"groups": ["financeiro"], "terms": []}
    assert resolve.agents(acme["t"], acme["fin"])["analyst"]["available"] is True


def test_resolve_agent_reports_availability_like_the_catalog(db, acme):
    agent(db, "caixa", acme["t"], requires={"grupos": ["financeiro"]})
    for project_id in (acme["fin"], acme["sales"], None):
        one = rows(db, "SELECT available, missing FROM resolve_agent(%s, %s, 'caixa')", (acme["t"], project_id))
        catalog = rows(db, "SELECT available, missing FROM resolve_agents(%s, %s) WHERE slug = 'caixa'",
                       (acme["t"], project_id))
        assert one == catalog and len(one) == 1


def test_another_tenants_groups_count_for_nothing(db, resolve, acme):
    vocabulary(db, "group", acme["g"], None, "vendas")
    agent(db, "caixa", requires={"grupos": ["vendas"]})
    assert resolve.agents(acme["t"], acme["sales"])["caixa"]["available"] is False
    assert resolve.agents(acme["g"])["caixa"]["available"] is True


@pytest.mark.parametrize("pinned", [True, False], ids=["pinned", "default"])
def test_a_conversation_whose_agent_is_unavailable_runs_without_one(db, resolve, acme, pinned):
    agent(db, "caixa", acme["t"], requires={"grupos": ["financeiro"], "termos": ["receita"]})
    if not pinned:
        set_default(db, "caixa", acme["t"])
    conv = conversation(db, acme["t"], acme["sales"], "caixa" if pinned else None)
    row = resolve.conversation(conv)
    assert row["mode"] == ("pinned" if pinned else "default")
    assert (row["slug"], row["agent_id"], row["orphaned"], row["unavailable"]) == ("caixa", None, False, True)
    assert row["missing"] == {"groups": ["financeiro"], "terms": ["receita"]}
    # Nothing was adopted: it runs without an agent.
    assert rows(db, "SELECT * FROM agent_adoptions WHERE conversation_id = %s", (conv,)) == []
    # Once the scope has what it needs, the same conversation runs with the agent.
    vocabulary(db, "term", acme["t"], acme["sales"], "receita")
    vocabulary(db, "group", acme["t"], None, "financeiro")
    row = resolve.conversation(conv)
    assert row["agent_id"] is not None and (row["unavailable"], row["missing"]) == (False, NOTHING_MISSING)


def test_orphaned_and_unavailable_are_told_apart(db, resolve, acme):
    agent(db, "caixa", acme["t"], requires={"grupos": ["financeiro"]})
    orphan = resolve.conversation(conversation(db, acme["t"], acme["sales"], "nao-existe"))
    fine = resolve.conversation(conversation(db, acme["t"], acme["fin"], "caixa"))
    none = resolve.conversation(conversation(db, acme["t"], acme["fin"], ""))
    assert (orphan["orphaned"], orphan["unavailable"], orphan["missing"]) == (True, False, NOTHING_MISSING)
    assert (fine["orphaned"], fine["unavailable"], fine["agent_id"] is not None) == (False, False, True)
    assert (none["orphaned"], none["unavailable"], none["agent_id"]) == (False, False, None)


def test_a_prompt_context_carries_no_unavailable_agent(db, acme):
    agent(db, "caixa", acme["t"], requires={"grupos": ["financeiro"]})
    conv = conversation(db, acme["t"], acme["sales"], "caixa")
    from registry import queries
    row = rows(db, queries.conversation_context, (conv,))[0]
    assert (row["unavailable"], row["a_agent_id"]) == (True, None)


def test_groups_are_unique_per_layer_after_folding(db, acme):
    with pytest.raises(psycopg.errors.UniqueViolation, match="dataset_groups_pkey"):
        vocabulary(db, "group", acme["t"], acme["fin"], "FINANCEIRO")
    vocabulary(db, "group", acme["t"], None, "financeiro")  # the tenant's own, beside the project's


@pytest.mark.parametrize("name", ["", " vendas", "vendas\n", "x" * 121])
def test_a_name_no_requirement_could_match_is_refused(db, acme, name):
    with pytest.raises(psycopg.errors.CheckViolation, match="glossary_terms_name_format"):
        vocabulary(db, "term", acme["t"], None, name)


def test_a_project_row_carries_its_own_tenant(db, acme):
    with pytest.raises(psycopg.errors.ForeignKeyViolation, match="glossary_terms_project_fk"):
        vocabulary(db, "term", acme["g"], acme["fin"], "receita")


def test_every_addition_and_removal_is_kept(db, acme):
    db.execute("SELECT set_config('registry.actor', 'ana@acme', false)")
    vocabulary(db, "term", acme["t"], None, "Receita")
    db.execute("DELETE FROM glossary_terms WHERE tenant_id = %s AND name_key = 'receita'", (acme["t"],))
    history = rows(db, "SELECT kind, name, change, changed_by, project_id FROM vocabulary_changes "
                       "WHERE tenant_id = %s ORDER BY id", (acme["t"],))
    assert history[-2:] == [{"kind": "term", "name": "Receita", "change": "added", "changed_by": "ana@acme", "project_id": None},
                            {"kind": "term", "name": "Receita", "change": "removed", "changed_by": "ana@acme", "project_id": None}]
    # Deleting the project or the tenant takes its names without writing entries that would name it.
    db.execute("DELETE FROM projects WHERE id = %s", (acme["fin"],))
    assert rows(db, "SELECT count(*) AS n FROM vocabulary_changes WHERE project_id = %s AND change = 'removed'",
                (acme["fin"],)) == [{"n": 0}]
    db.execute("DELETE FROM tenants WHERE id = %s", (acme["t"],))
    assert rows(db, "SELECT count(*) AS n FROM vocabulary_changes WHERE tenant_id = %s", (acme["t"],)) == [{"n": 0}]
