"""The version a conversation ran on (adoption records it, `conversation show` tells a drift),
trace attributes, shadow warnings on write, and the vocabulary API — through registry.api and the CLI."""

from __future__ import annotations

import json

import pytest

from registry.api import AgentRef, Registry
from registry.cli import main
from registry.errors import InvalidInput, NotFound
from registry.frame import frame_system_prompt
from registry.models import AgentChanges, AgentContent
from tests.helpers import rows

POSTURE = "Responda com o número primeiro e diga de onde ele veio."


@pytest.fixture
def reg(db) -> Registry:
    registry = Registry(db, actor="ana@acme")
    registry.create_tenant("acme", "Acme")
    registry.create_project("acme", "sales", "Sales")
    registry.create_project("acme", "ops", "Ops")
    return registry


def content(slug: str, **extra) -> AgentContent:
    return AgentContent(**{"slug": slug, "name": slug.title(), "instructions": POSTURE, "status": "published"} | extra)


def test_adoption_records_the_version_and_a_drift_is_told(reg, db):
    reg.create_agent(content("caixa"), tenant="acme")
    conv = reg.start_conversation("acme", "sales", agent_slug="caixa")
    assert (conv.adopted_version, conv.current_version, conv.layer, conv.version_drift) == (1, 1, "tenant", False)
    reg.update_agent(AgentRef("caixa", tenant="acme"), AgentChanges(instructions=POSTURE + " Sempre."), expected_version=1)
    later = reg.conversation(conv.conversation_id)
    assert (later.adopted_version, later.current_version, later.version_drift) == (1, 2, True)
    from registry.render import describe_conversation
    assert "adopted v1, now v2" in describe_conversation(later)
    # Adopting again changes nothing: once per conversation and agent.
    reg.adopt(conv.conversation_id)
    assert rows(db, "SELECT version FROM agent_adoptions WHERE conversation_id = %s", (conv.conversation_id,)) == [{"version": 1}]


def test_the_prompt_fingerprint_is_recorded_once_for_the_adopted_version(reg, db):
    reg.create_agent(content("caixa"), tenant="acme")
    conv = reg.start_conversation("acme", "sales", agent_slug="caixa")
    resolved, agent = reg.conversation_with_agent(conv.conversation_id)
    framed = frame_system_prompt("Regras do produto.", agent)
    reg.adopt(conv.conversation_id, framed.fingerprint)
    reg.adopt(conv.conversation_id, "0" * 64)  # filled already: left as it is
    shown = reg.conversation(conv.conversation_id)
    assert shown.adopted_fingerprint == framed.fingerprint
    assert shown.trace_attributes == {"gen_ai.prompt.name": "caixa", "gen_ai.prompt.version": "1",
                                      "registry.agent.layer": "tenant",
                                      "registry.prompt.fingerprint": f"sha256:{framed.fingerprint}"}
    with pytest.raises(InvalidInput, match="sha256"):
        reg.adopt(conv.conversation_id, "not-a-hash")


def test_trace_attributes_are_empty_without_an_agent(reg):
    conv = reg.start_conversation("acme", "sales", agent_slug="")
    assert conv.trace_attributes == {}


def test_creating_an_override_says_what_it_hides(reg):
    reg.create_agent(content("analista"))
    shadow = reg.shadowing("analista", "acme")
    assert shadow.warning == "this hides the official 'analista' (#1) in every project of acme (and acme tenant-wide)"
    assert {(r.kind, r.project_id is None, r.before_layer, r.after_layer) for r in shadow.impact} == {
        ("agent", True, "official", "tenant"), ("agent", False, "official", "tenant")}
    assert len(shadow.impact) == 3  # tenant-wide, sales and ops
    # Nothing was written by the preview.
    assert [a.layer for a in reg.agents("acme")] == ["official"]
    assert reg.shadowing("nothing-beneath", "acme") is None
    assert reg.shadowing("analista") is None  # the official layer inherits nothing


def test_publishing_a_draft_override_says_what_it_hides(reg):
    reg.create_agent(content("analista"), tenant="acme")
    draft = reg.create_agent(content("analista", status="draft"), tenant="acme", project="sales")
    shadow = reg.shadowing_of_publish(draft.id)
    assert shadow.warning.startswith("this hides the tenant's 'analista'") and shadow.warning.endswith("project acme/sales")
    assert [(r.before_layer, r.after_agent_id, r.after_layer) for r in shadow.impact] == [("tenant", draft.id, "project")]
    reg.publish(draft.id)
    assert reg.shadowing_of_publish(draft.id) is None  # already shows


def test_vocabulary_api_adds_lists_and_removes(reg, db):
    assert reg.add_names("group", ["Financeiro", "estoque"], "acme") == ["Financeiro", "estoque"]
    assert reg.add_names("group", ["FINANCEIRO"], "acme") == []  # already there, after case folding
    assert reg.add_names("group", ["vendas"], "acme", "sales") == ["vendas"]
    assert [(n.name, n.layer) for n in reg.names("group", "acme", "sales")] == [
        ("estoque", "tenant"), ("Financeiro", "tenant"), ("vendas", "project")]
    assert [n.name for n in reg.names("group", "acme", "ops")] == ["estoque", "Financeiro"]
    with pytest.raises(NotFound, match="it is the tenant's"):
        reg.remove_names("group", ["estoque"], "acme", "sales")
    assert reg.remove_names("group", ["financeiro"], "acme") == ["Financeiro"]
    with pytest.raises(InvalidInput, match="leading or trailing blanks"):
        reg.add_names("term", [" receita"], "acme")
    with pytest.raises(InvalidInput, match="'group' or 'term'"):
        reg.add_names("dataset", ["x"], "acme")


def test_a_tenant_never_touches_another_tenants_names(reg, db):
    reg.create_tenant("globex", "Globex")
    reg.add_names("term", ["receita"], "globex")
    db.execute("SELECT 1")
    acme = reg.for_tenant(rows(db, "SELECT id FROM tenants WHERE slug = 'acme'")[0]["id"])
    with pytest.raises(NotFound):
        acme.names("term", "globex")
    assert rows(db, "SELECT count(*) AS n FROM glossary_terms") == [{"n": 1}]


def test_cli_explain_groups_terms_and_conversation_show(demo, capsys):
    assert main(["explain", "--tenant", "acme", "--project", "vendas", "conciliador-bancario"]) == 0
    out = capsys.readouterr().out
    assert "is in use in acme/vendas, but it is unavailable here: it needs group 'extratos-bancarios'" in out
    assert main(["groups", "add", "--tenant", "acme", "--project", "vendas", "Extratos-Bancarios"]) == 0
    capsys.readouterr()
    assert main(["explain", "--tenant", "acme", "--project", "vendas", "conciliador-bancario", "--json"]) == 0
    explained = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["available"]) for r in explained["rows"]] == [("effective", True)]
    assert [d["decides"] for d in explained["default_chain"]] == [True, False, False]
    assert main(["terms", "list", "--tenant", "acme", "--json"]) == 0
    assert {t["name"] for t in json.loads(capsys.readouterr().out)} >= {"saldo", "giro"}
    assert main(["agent", "update", "resumo-para-diretoria", "--tenant", "acme", "--version", "1",
                 "--instructions", "Resuma em cinco linhas, o número primeiro."]) == 0
    capsys.readouterr()
    assert main(["conversation", "show", "2"]) == 0
    assert "adopted v1, now v2" in capsys.readouterr().out
    assert main(["explain", "--conversation", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Conversation 2: pinned to resumo-para-diretoria")
    assert "The tenant's 'resumo-para-diretoria' (v2) is in use in acme/financeiro." in out


def test_cli_explain_needs_a_slug_or_a_conversation(demo, capsys):
    assert main(["explain", "--tenant", "acme"]) != 0
    assert "explain needs --tenant T [--project P] SLUG, or --conversation ID" in capsys.readouterr().err


def test_import_counts_shadowings_and_export_carries_scope_files(demo, tmp_path, capsys):
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "analista-financeiro.md").write_text(
        "---\ntenant: acme\nslug: analista-financeiro\nname: Analista\nstatus: published\n---\nMostre o número.\n",
        encoding="utf-8")
    (tmp_path / "acme" / "scope.yaml").write_text("tenant: acme\ngroups: [contabilidade]\nterms: [saldo]\n",
                                                  encoding="utf-8")
    assert main(["import", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1 created" in out and "1 shadowing an inherited agent" in out and "1 group(s) or term(s) added" in out
    assert "hides the official 'analista-financeiro'" in out
    exported = tmp_path / "out"
    assert main(["export", str(exported), "--tenant", "acme"]) == 0
    scope = (exported / "acme" / "scope.yaml").read_text(encoding="utf-8")
    assert "contabilidade" in scope and "estoque" in scope
    assert "extratos-bancarios" in (exported / "acme" / "financeiro" / "scope.yaml").read_text(encoding="utf-8")
