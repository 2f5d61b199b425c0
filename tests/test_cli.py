"""The CLI as a user meets it: output, JSON, and one clear line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from registry.cli import main
from registry.paths import ROOT


@pytest.fixture
def demo_url(empty_db_url, monkeypatch, capsys) -> str:
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    assert main(["demo"]) == 0
    capsys.readouterr()
    return empty_db_url


def test_demo_prints_catalog_default_and_three_conversations(empty_db_url, monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "analista-de-caixa      project" in out
    assert "analista-financeiro    official" in out
    assert "resumo-para-diretoria  tenant" in out
    assert "Default agent: analista-de-caixa (set by the project layer" in out
    for mode in ("default", "pinned", "none"):
        assert f"  {mode}  " in out or f"  {mode} " in out
    # Running it again reuses everything and loads nothing new.
    assert main(["demo"]) == 0
    assert "Seeds loaded (0 rows" in capsys.readouterr().out


def test_agents_json_is_the_resolved_catalog(demo_url, capsys):
    assert main(["agents", "--tenant", "acme", "--project", "vendas", "--json"]) == 0
    catalog = json.loads(capsys.readouterr().out)
    assert {a["slug"]: a["layer"] for a in catalog} == {"analista-financeiro": "official",
                                                        "conciliador-bancario": "tenant",
                                                        "resumo-para-diretoria": "tenant"}
    # The demo's availability both ways: vendas lacks the group conciliador-bancario needs.
    by_slug = {a["slug"]: a for a in catalog}
    assert (by_slug["conciliador-bancario"]["available"], by_slug["conciliador-bancario"]["missing"]) == (
        False, {"groups": ["extratos-bancarios"], "terms": []})
    assert by_slug["analista-financeiro"]["trace_attributes"] == {
        "gen_ai.prompt.name": "analista-financeiro", "gen_ai.prompt.version": "1", "registry.agent.layer": "official"}
    assert set(catalog[0]) >= {"tenant_id", "project_id", "agent_id", "instructions", "requires", "version"}


def test_tenant_and_project_by_id(demo_url, capsys):
    assert main(["agents", "--tenant", "acme", "--json"]) == 0
    by_slug = json.loads(capsys.readouterr().out)
    tenant_id = by_slug[0]["tenant_id"]
    assert main(["agents", "--tenant", str(tenant_id), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_slug


def test_conversation_json(demo_url, capsys):
    assert main(["conversation", "show", "4", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert (c["mode"], c["slug"], c["orphaned"]) == ("pinned", "auditor-de-estoque", True)
    assert main(["conversation", "show", "4"]) == 0
    assert "ORPHANED" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message, code", [
    (["agents", "--tenant", "nope"], "no tenant 'nope'", 4),
    (["agents", "--tenant", "acme", "--project", "nope"], "has no project 'nope'", 4),
    (["conversation", "show", "999"], "no conversation 999", 4),
])
def test_unknown_names_are_one_line(demo_url, capsys, argv, message, code):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def run_cli(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REGISTRY_DATABASE_URL=url)
    return subprocess.run([sys.executable, "-m", "registry.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("url, message", [
    ("mysql://root@localhost/registry", "must be a postgresql:// URL"),
    ("postgresql://nobody@127.0.0.1:1/registry", "cannot connect to the database"),
])
def test_bad_url_or_server_down_is_one_line_without_traceback(url, message):
    result = run_cli("agents", "--tenant", "acme", url=url)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_migrate_sql_needs_no_database():
    result = run_cli("migrate", "--sql", url="")
    assert result.returncode == 0, result.stderr
    assert "CREATE TABLE agents" in result.stdout


@pytest.mark.parametrize("argv, message", [
    (["conversation", "12"], "to see conversation 12, say: registry conversation show 12"),
    (["conversation", "abc"], "no action 'abc': registry conversation show ID, start"),
    (["default", "--tenant", "acme"], "no action 'acme': registry default show --tenant T"),
    (["default"], "the following arguments are required: ACTION"),
    (["db", "nope"], "argument ACTION: invalid choice: 'nope'"),
])
def test_every_group_takes_an_action_word_and_argv_is_never_rewritten(capsys, argv, message):
    """`conversation ID` and `default --tenant T` once read without an action (argv was rewritten);
    now argparse reads what was typed, and the two old shorthands get a hint, not a guess."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and message in err and "Traceback" not in err
