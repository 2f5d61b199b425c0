"""The seeds: the official agents' texts intact, agent files parsed strictly, loading idempotent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from registry.agent_files import AgentFileError, parse_agent_file, read_agent_dir
from registry.agent_io import ImportRefused
from registry.seeding import OFFICIAL_AGENTS_DIR, load_seeds
from tests.helpers import rows

# The source document the official agents come from (docs/seeds/README.md).
SEED_MIGRATION = Path(__file__).resolve().parent.parent / "docs" / "seeds" / "003_ddb06cbdd22f5f38.txt"


def seed_document_instructions() -> dict[str, str]:
    """The instructions of the seed migration's INSERT, with MySQL's \\n escapes decoded."""
    text = SEED_MIGRATION.read_text(encoding="utf-8")
    literals = re.findall(r"'((?:[^'\\]|\\.|'')*)'", text[text.index("VALUES"):])
    # Per row: slug, name, description, when_to_use, requires, instructions, status, created_by.
    rows_ = [literals[i:i + 8] for i in range(0, len(literals), 8)]
    return {r[0]: r[5].replace("\\n", "\n").replace("''", "'") for r in rows_}


def test_official_agents_are_the_seed_documents_texts_intact():
    expected = seed_document_instructions()
    files = {a.slug: a for a in read_agent_dir(OFFICIAL_AGENTS_DIR)}
    assert sorted(files) == sorted(expected) == ["analista-financeiro", "resumo-para-diretoria"]
    for slug, instructions in expected.items():
        assert files[slug].instructions == instructions
        assert files[slug].status == "published" and files[slug].layer == "official"
        assert files[slug].requires == {"grupos": [], "termos": []}


def test_official_agents_are_loaded_as_published_official_rows(db):
    load_seeds(db, demo=False)
    found = rows(db, "SELECT slug, layer, status, length(instructions) > 500 AS long FROM agents ORDER BY slug")
    assert found == [
        {"slug": "analista-financeiro", "layer": "official", "status": "published", "long": True},
        {"slug": "resumo-para-diretoria", "layer": "official", "status": "published", "long": True},
    ]


def table_contents(db) -> dict[str, list]:
    return {t: rows(db, f"SELECT * FROM {t} ORDER BY 1, 2") for t in
            ("tenants", "projects", "agents", "agent_optouts", "agent_defaults", "conversations")}


def test_loading_twice_changes_nothing(db):
    first = load_seeds(db)
    assert first.total > 0 and first.changed["optouts"] == 1
    before = table_contents(db)
    second = load_seeds(db)
    assert second.total == 0, second.changed
    assert table_contents(db) == before


def test_demo_covers_every_state(db):
    load_seeds(db)
    modes = {r["mode"] for r in rows(db, "SELECT mode FROM conversation_agents")}
    assert modes == {"default", "none", "pinned"}
    assert rows(db, "SELECT count(*) AS n FROM conversation_agents WHERE orphaned")[0]["n"] >= 1
    assert {r["layer"] for r in rows(db, "SELECT layer FROM effective_agents")} == {"official", "tenant", "project"}


def test_front_matter_and_body():
    agent = parse_agent_file("---\nslug: a\nname: A\ntenant: acme\n---\nline 1\n\nline 3\n")
    assert (agent.slug, agent.name, agent.layer, agent.instructions) == ("a", "A", "tenant", "line 1\n\nline 3")


@pytest.mark.parametrize("text, problem", [
    ("slug: a\n", "must start with"),
    ("---\nslug: a\n", "not closed"),
    ("---\nslug: [a\n---\nx", "not valid YAML"),
    ("---\nslug: Not A Slug\n---\nx", "slug"),
    ("---\nslug: a\nstatus: archived\n---\nx", "status"),
    ("---\nslug: a\ncolour: red\n---\nx", "colour"),
    ("---\nslug: a\nrequires: {grupos: financeiro}\n---\nx", "requires"),
])
def test_a_bad_agent_file_names_the_problem(text, problem):
    with pytest.raises(AgentFileError, match=problem):
        parse_agent_file(text, "bad.md")


def test_a_bad_file_leaves_nothing_half_loaded(db, tmp_path, monkeypatch):
    from registry import seeding

    good = (OFFICIAL_AGENTS_DIR / "analista-financeiro.md").read_text()
    (tmp_path / "a.md").write_text(good)
    (tmp_path / "b.md").write_text("---\nslug: b\ntenant: nobody\n---\nx")
    monkeypatch.setattr(seeding, "OFFICIAL_AGENTS_DIR", Path(tmp_path))
    with pytest.raises(ImportRefused, match="no tenant 'nobody'"):
        load_seeds(db, demo=False)
    assert rows(db, "SELECT count(*) AS n FROM agents")[0]["n"] == 0
