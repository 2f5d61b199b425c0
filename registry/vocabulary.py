"""What a scope has: the dataset groups and glossary terms of a tenant and of its projects
(docs/design.md, "Resolution rules", rule 7). An agent's `requires` names them; resolution reports
an agent whose scope lacks one as unavailable.

A tenant's names hold in all its projects; a project's add to them and never remove one. Names
match after case folding and NFC, nothing else ("financas" is not "financeiro"): the database
computes the key (the tables' name_key), so SQL and Python agree by construction.
"""

from __future__ import annotations

from typing import Literal

import psycopg
from psycopg.rows import kwargs_row

from registry import limits, queries
from registry.errors import InvalidInput, NotFound
from registry.models import ScopeName

Kind = Literal["group", "term"]
TABLES: dict[str, str] = {"group": "dataset_groups", "term": "glossary_terms"}
WORDS = {"group": "dataset group", "term": "glossary term"}


def check_kind(kind: str) -> Kind:
    if kind not in TABLES:
        raise InvalidInput(f"kind must be 'group' or 'term', not {kind!r}")
    return kind  # type: ignore[return-value]


def check_name(kind: Kind, name: object) -> str:
    """A name as the database will take it; the same rules, said first and more clearly."""
    if not isinstance(name, str):
        raise InvalidInput(f"a {WORDS[kind]} is text, not {type(name).__name__}")
    if not 0 < len(name) <= limits.REQUIRES_ITEM:
        raise InvalidInput(f"a {WORDS[kind]} is 1 to {limits.REQUIRES_ITEM} characters, not {len(name)}")
    if name != name.strip() or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise InvalidInput(f"{WORDS[kind]} {name!r} has leading or trailing blanks or control characters: "
                           "write it as agents' requires name it")
    return name


def _statement(name: str, kind: Kind) -> str:
    """The statement of sql/queries/vocabulary.sql for this kind (one set per table)."""
    statements = {
        "group": {"insert": queries.insert_dataset_group, "delete": queries.delete_dataset_group,
                  "list": queries.dataset_groups_of_scope, "tenant_has": queries.tenant_has_dataset_group},
        "term": {"insert": queries.insert_glossary_term, "delete": queries.delete_glossary_term,
                 "list": queries.glossary_terms_of_scope, "tenant_has": queries.tenant_has_glossary_term},
    }
    return statements[kind][name]


def add(conn: psycopg.Connection, kind: Kind, tenant_id: int, project_id: int | None, names: list[str]) -> list[str]:
    """Give a layer names; returns those it did not have yet (the others are left as they are)."""
    added = []
    for name in names:
        row = conn.execute(_statement("insert", kind), (tenant_id, project_id, check_name(kind, name))).fetchone()
        if row is not None:
            added.append(row[0])
    return added


def remove(conn: psycopg.Connection, kind: Kind, tenant_id: int, project_id: int | None, names: list[str],
           where: str) -> list[str]:
    """Take names from one layer, all or none: a name that layer lacks is NotFound (and says when
    the name is the tenant's, which a project cannot remove)."""
    removed = []
    for name in names:
        rows = conn.execute(_statement("delete", kind), (tenant_id, project_id, check_name(kind, name))).fetchall()
        if not rows:
            hint = ""
            if project_id is not None and conn.execute(_statement("tenant_has", kind), (tenant_id, name)).fetchone():
                hint = ": it is the tenant's, and a project only adds names; remove it from the tenant (no --project)"
            raise NotFound(f"{where} has no {WORDS[kind]} {name!r}{hint}")
        removed += [r[0] for r in rows]
    return removed


def listed(conn: psycopg.Connection, kind: Kind, tenant_id: int, project_id: int | None) -> list[ScopeName]:
    """The names a scope has: the tenant's, then with a project its own additions."""
    def row(**columns) -> ScopeName:
        return ScopeName(kind=kind, **columns)

    with conn.cursor(row_factory=kwargs_row(row)) as cur:
        return cur.execute(_statement("list", kind), (tenant_id, project_id)).fetchall()
