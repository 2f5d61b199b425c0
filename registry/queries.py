"""Every statement the application sends, by name, from the SQL files of `sql/queries/`.

    from registry import queries
    conn.execute(queries.agent_in_layer, (tenant_id, project_id, slug))

Each file holds named blocks, as aiosql's and procrastinate's query files do:

    -- name: agent_in_layer
    -- An agent by its layer (tenant and project ids, NULL for none) and slug.
    SELECT ... FROM public.agents WHERE ...;

The name line, then at least one comment line saying what the statement does, then the SQL
with psycopg's placeholders (`%s`, `%(name)s`). A statement that must be composed (a variable
SET list, a role's name) keeps `{name}` where psycopg.sql fills in an identifier or a list of
them, and says so. The files are read once, on first use; a name no file defines is an
AttributeError, and tests/test_queries.py checks that every name used in registry/ is defined
and every defined one used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable

from registry import paths
from registry.errors import RegistryError

_NAME_LINE = re.compile(r"^-- name: (?P<name>\S*)[ \t]*$", re.M)
_VALID_NAME = re.compile(r"[a-z][a-z0-9_]*")
# `{role}`, `{assignments}`: where psycopg.sql composes identifiers into a statement.
_SLOT = re.compile(r"\{([a-z_]+)\}")


class QueryFileError(RegistryError):
    """A file of sql/queries/ is malformed: a block without a name, a description or a statement,
    or a name defined twice."""


@dataclass(frozen=True)
class Query:
    name: str
    description: str
    sql: str
    source: str  # the file's name, for messages

    @property
    def slots(self) -> tuple[str, ...]:
        """The `{name}` slots psycopg.sql fills in (empty: the statement is sent as it is)."""
        return tuple(_SLOT.findall(self.sql))


def folder() -> Traversable:
    """Where the query files live: the one place to repoint when sql/ moves."""
    return paths.SQL_DIR / "queries"


def parse(text: str, source: str) -> list[Query]:
    """The named statements of one file. Text before the first name is the file's own comment."""
    parts = _NAME_LINE.split(text)
    preamble, blocks = parts[0], parts[1:]
    if any(line.strip() and not line.lstrip().startswith("--") for line in preamble.splitlines()):
        raise QueryFileError(f"{source}: SQL before the first '-- name:' line")
    found = []
    for name, body in zip(blocks[::2], blocks[1::2]):
        if not _VALID_NAME.fullmatch(name):
            raise QueryFileError(f"{source}: {name!r} is not a query name (lower case, digits, underscores)")
        lines = body.strip("\n").splitlines()
        description = []
        while lines and lines[0].startswith("--"):
            description.append(lines.pop(0).removeprefix("--").strip())
        statement = "\n".join(lines).strip().removesuffix(";").rstrip()
        if not description or not description[0]:
            raise QueryFileError(f"{source}: {name} has no comment line saying what it does")
        if not statement:
            raise QueryFileError(f"{source}: {name} has no statement")
        found.append(Query(name, " ".join(description), statement, source))
    return found


@cache
def load() -> dict[str, Query]:
    """Every named statement of sql/queries/, read once."""
    named: dict[str, Query] = {}
    for entry in sorted(folder().iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".sql"):
            continue
        for query in parse(entry.read_text(encoding="utf-8"), entry.name):
            if query.name in named:
                raise QueryFileError(f"{query.source}: {query.name} is already defined in {named[query.name].source}")
            if query.name in OWN_NAMES:
                raise QueryFileError(f"{query.source}: {query.name} is a name of registry.queries itself")
            named[query.name] = query
    return named


def __getattr__(name: str) -> str:
    """`queries.agent_in_layer`: the SQL of the statement of that name. Kept as a module attribute
    once read, so the next read is a plain lookup (this runs on every write's hot path)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        sql = load()[name].sql
    except KeyError:
        raise AttributeError(f"no query named {name!r} in sql/queries/") from None
    globals()[name] = sql
    return sql


# The module's own names: a statement may not take one (it could never be read by name).
OWN_NAMES = frozenset(name for name in globals() if not name.startswith("__")) | {"OWN_NAMES"}
