"""Every statement the application sends is named in sql/queries/ (registry.queries): each name
used in registry/ is defined, each defined one is used, every relation is schema-qualified and
every statement is valid against the schema."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import psycopg
import pytest
import sqlglot
from sqlglot import exp

from registry import queries, schema

ROOT = Path(__file__).resolve().parent.parent
# What registry.queries defines for itself; any other attribute of `queries` names a statement.
MODULE_NAMES = queries.OWN_NAMES


def used_names() -> dict[str, list[str]]:
    """Every `queries.<name>` in registry/, with where it is used."""
    used: dict[str, list[str]] = {}
    for path in sorted((ROOT / "registry").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "queries"
                    and node.attr not in MODULE_NAMES):
                used.setdefault(node.attr, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return used


def test_every_name_used_is_defined():
    missing = {name: where for name, where in used_names().items() if name not in queries.load()}
    assert missing == {}


def test_every_statement_defined_is_used():
    unused = sorted(set(queries.load()) - set(used_names()))
    assert unused == [], f"statements nothing in registry/ uses: {unused}"


def test_a_name_no_file_defines_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no query named 'nosuch'"):
        queries.nosuch  # noqa: B018


def test_a_statement_may_not_take_a_name_of_the_module(tmp_path, monkeypatch):
    (tmp_path / "a.sql").write_text("-- name: load\n-- Shadowed.\nSELECT 1;\n")
    monkeypatch.setattr(queries, "folder", lambda: tmp_path)
    queries.load.cache_clear()
    try:
        with pytest.raises(queries.QueryFileError, match="load is a name of registry.queries itself"):
            queries.load()
    finally:
        queries.load.cache_clear()


def test_names_read_as_sql():
    assert queries.agent_in_layer.startswith("SELECT id, tenant_id")
    assert queries.load()["agent_in_layer"].description.startswith("An agent by its layer")
    assert not queries.agent_in_layer.endswith(";")


def test_no_python_module_keeps_a_statement_of_its_own():
    """The modules whose statements moved to sql/queries/ send none written in Python, save the
    composed or administrative ones docs/dba.md lists."""
    statement = re.compile(r"""["'](\s*)(SELECT|INSERT|UPDATE|DELETE|WITH|SET|SHOW)\s""")
    cli = [f"cli/{p.name}" for p in sorted((ROOT / "registry" / "cli").glob("*.py"))]
    for name in ("api.py", "repository.py", "seeding.py", "bench/run.py", *cli, "agent_io.py", "agent_export.py",
                 "prompting.py"):
        text = (ROOT / "registry" / name).read_text(encoding="utf-8")
        assert statement.findall(text) == [], name


@pytest.mark.parametrize("query", queries.load().values(), ids=lambda q: q.name)
def test_every_relation_is_schema_qualified(query: queries.Query):
    """A tenant's temporary table or view named like ours must never answer the application."""
    ctes = set()
    tables = []
    for statement in sqlglot.parse(query.sql, read="postgres"):
        if statement is None:
            continue
        ctes |= {cte.alias for cte in statement.find_all(exp.CTE)}
        tables += [t for t in statement.find_all(exp.Table) if isinstance(t.this, exp.Identifier)]
    unqualified = [t.name for t in tables if not t.db and t.name not in ctes]
    assert unqualified == []


def test_parse_names_describes_and_strips():
    text = "-- the file's own comment\n\n-- name: one\n-- Says what.\n-- Twice.\nSELECT 1;\n\n-- name: two\n-- Two.\nSELECT\n  2;\n"
    one, two = queries.parse(text, "x.sql")
    assert (one.name, one.description, one.sql) == ("one", "Says what. Twice.", "SELECT 1")
    assert (two.name, two.sql) == ("two", "SELECT\n  2")


@pytest.mark.parametrize("text, message", [
    ("SELECT 1;\n-- name: one\n-- One.\nSELECT 1;", "SQL before the first"),
    ("-- name: one\nSELECT 1;", "no comment line"),
    ("-- name: one\n-- One.\n", "no statement"),
    ("-- name: One\n-- One.\nSELECT 1;", "not a query name"),
])
def test_a_malformed_file_is_refused(text: str, message: str):
    with pytest.raises(queries.QueryFileError, match=message):
        queries.parse(text, "x.sql")


def test_a_name_defined_twice_is_refused(tmp_path, monkeypatch):
    (tmp_path / "a.sql").write_text("-- name: one\n-- One.\nSELECT 1;\n")
    (tmp_path / "b.sql").write_text("-- name: one\n-- One again.\nSELECT 2;\n")
    monkeypatch.setattr(queries, "folder", lambda: tmp_path)
    queries.load.cache_clear()
    try:
        with pytest.raises(queries.QueryFileError, match="b.sql: one is already defined in a.sql"):
            queries.load()
    finally:
        queries.load.cache_clear()


def test_the_replaceable_objects_do_not_include_the_queries():
    assert all(f.path.parent.name == "replaceable" for f in schema.replaceable_files())


def _numbered(sql: str) -> str:
    """psycopg's placeholders as PostgreSQL's own: %s in order, %(name)s one number per name."""
    numbers: dict[str, int] = {}

    def number(match: re.Match) -> str:
        key = match.group(1) or f"#{len(numbers)}"
        return f"${numbers.setdefault(key, len(numbers) + 1)}"
    return re.sub(r"%(?:\((\w+)\))?s", number, sql)


PREPARABLE = [q for q in queries.load().values()
              if not q.slots and q.sql.split(None, 1)[0].upper() in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")
              and ";" not in q.sql]


@pytest.mark.parametrize("query", PREPARABLE, ids=lambda q: q.name)
def test_every_statement_prepares_against_the_schema(db: psycopg.Connection, query: queries.Query):
    """PostgreSQL parses and plans each statement against the schema: a misspelt column fails here."""
    db.execute(f"PREPARE q AS {_numbered(query.sql)}")
    db.execute("DEALLOCATE q")


def test_the_composed_update_prepares_against_the_schema(db: psycopg.Connection):
    from psycopg import sql

    update = sql.SQL(queries.update_agent).format(assignments=sql.SQL("name = %(name)s")).as_string(db)
    db.execute(f"PREPARE q AS {_numbered(update)}")
    db.execute("DEALLOCATE q")
