"""sqlglot earns its place: every SQL file parses before a database sees it, and the order of
the replaceable objects comes from their references."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry import schema
from registry.paths import MIGRATIONS_DIR, SQL_DIR

SQL_FILES = sorted(SQL_DIR.rglob("*.sql")) + sorted((MIGRATIONS_DIR / "sql").glob("*.sql"))


@pytest.mark.parametrize("path", SQL_FILES, ids=lambda p: str(p.relative_to(SQL_DIR.parent)))
def test_every_sql_file_parses(path: Path):
    statements = schema.parse_statements(path.read_text(), path)
    assert statements


def test_a_syntax_error_is_caught_before_the_database():
    with pytest.raises(schema.SqlFileError, match="broken.sql"):
        schema.parse_statements("CREATE VIEW v AS SELECT FROM WHERE (;", Path("broken.sql"))


def test_replaceable_objects_come_after_what_they_reference():
    files = schema.replaceable_files()
    position = {name: i for i, f in enumerate(files) for name in f.defines}
    edges = 0
    for i, f in enumerate(files):
        for name in f.references & position.keys():
            if name not in f.defines:
                assert position[name] < i, f"{f.path.name} runs before {name}"
                edges += 1
    assert edges >= 6  # views on functions, functions on functions: the order is not trivial
    assert position["resolve_agents"] < position["effective_agents"]
    assert position["winning_agent"] < position["resolve_agent"]
    assert position["winning_agent"] < position["conversation_agents"] < position["resolve_conversation_agent"]


def test_order_is_derived_not_alphabetical():
    names = [f.path.name for f in schema.replaceable_files()]
    assert names != sorted(names)


def test_a_reference_cycle_is_refused(tmp_path, monkeypatch):
    (tmp_path / "a.sql").write_text("CREATE VIEW a AS SELECT * FROM b;")
    (tmp_path / "b.sql").write_text("CREATE VIEW b AS SELECT * FROM a;")
    monkeypatch.setattr(schema, "REPLACEABLE_DIR", tmp_path)
    schema.replaceable_files.cache_clear()
    try:
        with pytest.raises(schema.SqlFileError, match="cycle"):
            schema.replaceable_files()
    finally:
        schema.replaceable_files.cache_clear()


def test_drop_script_drops_every_replaceable_object_dependents_first():
    script = schema.drop_replaceable_sql()
    assert script.index("DROP VIEW IF EXISTS effective_agents;") < script.index("DROP FUNCTION IF EXISTS resolve_agents CASCADE;")
    for f in schema.replaceable_files():
        for name in f.defines:
            assert f" {name}" in script
