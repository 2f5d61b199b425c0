"""One round trip where one will do: the catalog comes with its tool profiles and uses, a command
resolves its scope and answers in one transaction, a prompt is built in one, an import gates each
file once."""

from __future__ import annotations

import contextlib
from pathlib import Path

import psycopg
import pytest

from registry import agent_io, api, queries
from registry.api import Registry
from registry.cli import main
from registry.prompting import conversation_prompt
from tests.helpers import agent, conversation, project, set_default, tenant


class Recording(psycopg.Cursor):
    """A cursor that keeps the text of every statement it sends."""

    sent: list[str] = []

    def execute(self, query, params=None, **kwargs):
        Recording.sent.append(query if isinstance(query, str) else query.as_string(self.connection))
        return super().execute(query, params, **kwargs)


@pytest.fixture
def sent(db: psycopg.Connection) -> list[str]:
    Recording.sent = []
    db.cursor_factory = Recording
    return Recording.sent


@pytest.fixture
def transactions(monkeypatch) -> list[int]:
    """How many transactions every Registry opens (a savepoint counts too)."""
    opened: list[int] = []
    original = Registry.transaction

    @contextlib.contextmanager
    def counted(self, *args, **kwargs):
        opened.append(1)
        with original(self, *args, **kwargs) as conn:
            yield conn
    monkeypatch.setattr(Registry, "transaction", counted)
    return opened


def test_the_catalog_comes_with_tool_profiles_and_uses_in_one_statement(db, sent):
    t = tenant(db, "acme")
    p = project(db, t, "sales")
    official = agent(db, "analyst")
    db.execute("UPDATE agents SET tool_profile = %s WHERE id = %s", ('{"include": ["sql.*"]}', official))
    c = conversation(db, t, p, "analyst")
    Registry(db).adopt(c)
    sent.clear()
    [entry] = Registry(db).agents(t, p)
    assert (entry.slug, entry.uses, entry.tool_profile.include) == ("analyst", 1, ["sql.*"])
    assert sent == [queries.tenant_by_id, queries.project_by_id, queries.catalog]


def test_a_prompt_is_built_in_one_transaction_and_one_statement(db, sent, transactions):
    t = tenant(db, "acme")
    p = project(db, t, "sales")
    agent(db, "analyst", t, p)
    db.execute("UPDATE projects SET instruction_file = 'O ano fiscal começa em abril.' WHERE id = %s", (p,))
    c = conversation(db, t, p, "analyst")
    sent.clear()
    built = conversation_prompt(Registry(db), c, "Regras do produto.")
    assert (built.conversation.slug, built.agent.slug) == ("analyst", "analyst")
    assert "O ano fiscal começa em abril." in built.assembled.text
    assert "project: sales" in built.assembled.text  # the project's context, by slug
    assert len(transactions) == 1
    assert sent == [queries.conversation_context]


def test_a_prompt_without_project_or_agent_reads_the_tenant_alone(db, sent):
    t = tenant(db, "acme")
    set_default(db, "", t)
    c = conversation(db, t, None, None)
    sent.clear()
    built = conversation_prompt(Registry(db), c, "Regras do produto.")
    assert built.agent is None and built.conversation.project_id is None
    assert "tenant: acme" in built.assembled.text  # the context layer names the tenant by slug
    assert sent == [queries.conversation_context]


def test_the_agents_command_resolves_and_answers_in_one_transaction(db, db_url, monkeypatch, capsys, transactions):
    t = tenant(db, "acme")
    project(db, t, "sales")
    agent(db, "analyst")
    monkeypatch.setenv("REGISTRY_DATABASE_URL", db_url)
    assert main(["agents", "--tenant", "acme", "--project", "sales"]) == 0
    assert "analyst" in capsys.readouterr().out
    assert len(transactions) == 1


def test_the_demo_reads_what_it_shows_in_one_transaction(empty_db_url, monkeypatch, capsys, transactions):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    assert main(["demo"]) == 0
    assert "Conversations, one in each state" in capsys.readouterr().out
    assert len(transactions) == 2  # loading the seeds, then reading what the demo shows


AGENT_FILE = """---
slug: {slug}
name: "Analista {slug}"
description: "Le os numeros."
when_to_use: "Para conversas de resultado."
status: published
---
{text}
"""


def test_an_import_gates_each_file_once(db, tmp_path: Path, monkeypatch):
    calls = {"instructions": 0, "fields": 0}

    def counting(name, function):
        def counted(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return counted
    gate_instructions = counting("instructions", agent_io.validate_instructions)
    monkeypatch.setattr(agent_io, "validate_instructions", gate_instructions)
    monkeypatch.setattr(api, "validate_instructions", gate_instructions)
    monkeypatch.setattr(api, "validate_field", counting("fields", api.validate_field))
    for slug in ("um", "dois"):
        (tmp_path / f"{slug}.md").write_text(AGENT_FILE.format(slug=slug, text="Escreva com clareza."))
    reg = Registry(db, actor="test")
    assert agent_io.import_agents(reg, tmp_path).summary() == "2 created, 0 updated, 0 unchanged, 0 refused"
    assert calls == {"instructions": 2, "fields": 6}  # name, description, when_to_use: once each per file

    # An update writes what the gate returned: decomposed accents arrive composed, CRLF as LF.
    (tmp_path / "um.md").write_text(AGENT_FILE.format(slug="um", text="Seja concisa.\r\nE clara.").replace(
        "Le os numeros.", "Le os nu\u0301meros."), newline="")
    calls.update(instructions=0, fields=0)
    assert agent_io.import_agents(reg, tmp_path).summary() == "0 created, 1 updated, 1 unchanged, 0 refused"
    assert calls == {"instructions": 2, "fields": 6}
    stored = db.execute("SELECT instructions, description FROM agents WHERE slug = 'um'").fetchone()
    assert stored == ("Seja concisa.\nE clara.", "Le os n\u00fameros.")
    assert agent_io.import_agents(reg, tmp_path).summary() == "0 created, 0 updated, 2 unchanged, 0 refused"
