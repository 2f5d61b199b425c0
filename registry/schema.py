"""The SQL files of `sql/`, parsed and ordered.

Tables live in `sql/tables.sql` and change through numbered migrations; views, functions
and triggers live one concern per file in `sql/replaceable/` and are dropped and re-created
whole. The order in which those files run is derived here from what each one defines and
references (parsed with sqlglot), so adding a view never means editing a hand-kept list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import logging

import sqlglot
from sqlglot import exp

from registry.errors import RegistryError
from registry.paths import SQL_DIR

TABLES_FILE = SQL_DIR / "tables.sql"
REPLACEABLE_DIR = SQL_DIR / "replaceable"

# plpgsql bodies are not SQL sqlglot can parse; CREATE FUNCTION ... LANGUAGE plpgsql falls
# back to a Command, and we find its name with this pattern instead.
_FUNCTION_NAME = re.compile(r"^\s*CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([a-z_][a-z0-9_]*)\s*\(", re.I)
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*", re.I)
# A replaceable file that needs tables of a later revision says so in a comment line, so a
# downgrade below that revision does not re-create it: "-- since revision 0002".
_POLICY = re.compile(r"^\s*CREATE\s+POLICY\s+([a-z_][a-z0-9_]*)\s+ON\s+(?:public\.)?([a-z_][a-z0-9_]*)", re.I)
_SINCE = re.compile(r"^--\s*since revision\s+(\w+)\s*$", re.M)
# Its counterpart, for a stand-in that keeps older schemas working: "-- before revision 0008"
# marks a file created only below that revision (never at head), defining the same objects as
# the file that replaces it from that revision on, so what calls them works at every revision.
_BEFORE = re.compile(r"^--\s*before revision\s+(\w+)\s*$", re.M)


# The plpgsql fallback below is expected; sqlglot's warning about it is noise.
logging.getLogger("sqlglot").setLevel(logging.ERROR)


class SqlFileError(RegistryError):
    """A file of sql/ does not parse, or its objects' references form a cycle."""


@dataclass(frozen=True)
class ReplaceableFile:
    """One file of sql/replaceable/: the objects it defines and the names it references."""

    path: Path
    sql: str
    views: tuple[str, ...]
    functions: tuple[str, ...]
    references: frozenset[str]
    since: str | None = None
    policies: tuple[tuple[str, str], ...] = ()  # (policy, table)
    before: str | None = None

    def applies_at(self, revision: str | None) -> bool:
        """Whether this file is created at a revision (None: head, as sql/ builds it)."""
        if revision is None:
            return self.before is None
        return (self.since is None or self.since <= revision) and (self.before is None or revision < self.before)

    @property
    def defines(self) -> frozenset[str]:
        return frozenset(self.views + self.functions)


def parse_statements(sql: str, source: Path) -> list[exp.Expression]:
    """Parse a whole file with the PostgreSQL dialect; a syntax error names the file."""
    try:
        return [s for s in sqlglot.parse(sql, read="postgres") if s is not None]
    except sqlglot.errors.ParseError as error:
        raise SqlFileError(f"{source}: {error}") from error


def _function_body(statement: exp.Create) -> str | None:
    """The body of a LANGUAGE sql function, which is itself SQL worth parsing."""
    properties = statement.args.get("properties")
    language = None
    if properties:
        for prop in properties.expressions:
            if isinstance(prop, exp.LanguageProperty):
                language = prop.this.name.lower() if isinstance(prop.this, exp.Expression) else str(prop.this).lower()
    body = statement.expression
    if language == "sql" and isinstance(body, (exp.Literal, exp.Heredoc)):
        return body.this
    return None


def _referenced_names(node: exp.Expression) -> set[str]:
    names = {table.name for table in node.find_all(exp.Table)}
    names |= {fn.name for fn in node.find_all(exp.Anonymous)}
    return names


def read_replaceable_file(path: Path) -> ReplaceableFile:
    sql = path.read_text(encoding="utf-8")
    views: list[str] = []
    functions: list[str] = []
    policies: list[tuple[str, str]] = []
    references: set[str] = set()
    for statement in parse_statements(sql, path):
        if isinstance(statement, exp.Command):
            # CREATE POLICY, plpgsql functions, DO blocks: read for the names they mention.
            text = f"{statement.this} {statement.expression}"
            if match := _FUNCTION_NAME.match(text):
                functions.append(match.group(1))
            if match := _POLICY.match(text):
                policies.append((match.group(1), match.group(2)))
            references |= set(_IDENTIFIER.findall(text))
            continue
        if isinstance(statement, exp.Create):
            kind = (statement.args.get("kind") or "").upper()
            if kind == "VIEW":
                views.append(statement.this.name)
                references |= _referenced_names(statement.expression)
            elif kind == "FUNCTION":
                functions.append(statement.this.this.name)
                body = _function_body(statement)
                if body is not None:
                    for inner in parse_statements(body, path):
                        references |= _referenced_names(inner)
            else:
                references |= _referenced_names(statement)
    since, before = _SINCE.search(sql), _BEFORE.search(sql)
    return ReplaceableFile(path, sql, tuple(views), tuple(functions), frozenset(references),
                           since.group(1) if since else None, tuple(policies),
                           before.group(1) if before else None)


@cache
def replaceable_files() -> tuple[ReplaceableFile, ...]:
    """Every file of sql/replaceable/, each after the files whose objects it references."""
    files = [read_replaceable_file(p) for p in sorted(REPLACEABLE_DIR.glob("*.sql"))]
    # A name may have two definers (a "before revision" stand-in and its replacement): a file that
    # references it comes after both. A definer's own references to the name (a trigger naming its
    # function) are to itself: the two are never created together.
    owners: dict[str, set[str]] = {}
    for f in files:
        for name in f.defines:
            owners.setdefault(name, set()).add(f.path.name)
    graph: dict[str, set[str]] = {}
    for f in files:
        graph[f.path.name] = {o for n in f.references - f.defines for o in owners.get(n, ()) if o != f.path.name}
    sorter = TopologicalSorter(graph)
    try:
        sorter.prepare()
    except CycleError as error:
        raise SqlFileError(f"sql/replaceable/ references form a cycle: {error.args[1]}") from error
    order: list[str] = []
    while sorter.is_active():
        # Sorted within each wave, so the script is byte-identical from run to run.
        ready = sorted(sorter.get_ready())
        order += ready
        sorter.done(*ready)
    by_name = {f.path.name: f for f in files}
    return tuple(by_name[name] for name in order)


def tables_sql() -> str:
    return TABLES_FILE.read_text(encoding="utf-8")


def create_replaceable_sql(revision: str | None = None) -> str:
    """The script that (re)creates the replaceable objects, in dependency order.

    With a revision, files that need a later one ("-- since revision N") are left out; stand-ins
    ("-- before revision N") are created only below N, never at head.
    Revisions are zero-padded numbers, so they compare as strings.
    """
    chosen = [f for f in replaceable_files() if f.applies_at(revision)]
    body = "\n".join(f"-- {f.path.relative_to(SQL_DIR.parent)}\n{f.sql}" for f in chosen)
    return f"{_AS_OWNER}\n{body}\nRESET ROLE;\n"


# Replaceable objects belong to whoever owns the tables (registry_owner from revision 0003 on),
# whoever runs the migration — provided that user may act as the owner (a superuser, a member).
_AS_OWNER = """DO $$
DECLARE
    owner name;
BEGIN
    SELECT tableowner INTO owner FROM pg_tables
     WHERE schemaname = current_schema() AND tablename = 'agents';
    IF owner IS NOT NULL AND owner <> current_user AND pg_has_role(current_user, owner, 'MEMBER') THEN
        EXECUTE format('SET LOCAL ROLE %I', owner);
    END IF;
END
$$;
"""


def drop_replaceable_sql() -> str:
    """The script that drops every replaceable object, dependents first.

    Functions go with CASCADE so their triggers go too; the triggers are re-created with them.
    """
    policies = [p for f in replaceable_files() for p in f.policies]
    lines = [_drop_policies(policies)] if policies else []
    for f in reversed(replaceable_files()):
        lines += [f"DROP VIEW IF EXISTS {name};" for name in reversed(f.views)]
        lines += [f"DROP FUNCTION IF EXISTS {name} CASCADE;" for name in reversed(f.functions)]
    return "\n".join(lines) + "\n"


def _drop_policies(policies: list[tuple[str, str]]) -> str:
    """Drop our policies wherever they exist: DROP POLICY needs its table, which a fresh
    database does not have yet."""
    names = ", ".join(f"('{policy}', '{table}')" for policy, table in policies)
    return f"""DO $$
DECLARE
    p record;
BEGIN
    FOR p IN SELECT policyname, tablename FROM pg_policies
              WHERE schemaname = current_schema() AND (policyname, tablename) IN (VALUES {names})
    LOOP
        EXECUTE format('DROP POLICY %I ON %I', p.policyname, p.tablename);
    END LOOP;
END
$$;"""


def apply_schema(conn) -> None:
    """Build the schema straight from sql/ (tables, then replaceable objects), one transaction.

    What `alembic upgrade head` must equal; tests build their template database with it.
    """
    with conn.transaction():
        conn.execute(tables_sql())
        conn.execute(create_replaceable_sql())
