"""Running the migrations: Alembic as a thin runner over SQL files.

Each revision in migrations/versions/ executes migrations/sql/<revision>.up.sql or
.down.sql; migrations/env.py re-creates the replaceable objects (sql/replaceable/) after
every upgrade. This module is what the CLI and the tests call; `alembic` works directly too.

Migrations never claim what they did not do: `plan` reads where the database is before anything
runs, `upgrade` refuses a target below it (that is a downgrade: say so with `downgrade`), and
both return the revision read back afterwards. A downgrade that removes tables or columns lists
them with their row counts first (`data_loss`), so the caller can ask before data goes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from alembic.operations import Operations

from registry.errors import ConfigurationError, DatabaseUnavailable, RegistryError, first_line
from registry.paths import ALEMBIC_INI, MIGRATIONS_DIR

MIGRATION_SQL_DIR = MIGRATIONS_DIR / "sql"

# SQLAlchemy's text() reads ":name" as a bind parameter; a backslash makes it literal.
# "::" casts are left alone (the lookbehind skips a colon preceded by a colon).
_BIND_LIKE = re.compile(r"(?<![:\w\\]):(?=\w)")


def escape_binds(sql: str) -> str:
    # Alembic ends each statement of the --sql output with ";" itself.
    return _BIND_LIKE.sub(r"\\:", sql.rstrip().removesuffix(";"))


def execute_sql(op: Operations, sql: str) -> None:
    """Execute a whole SQL script through Alembic, online or into the --sql output."""
    from sqlalchemy import text

    op.execute(text(escape_binds(sql)))


def run_revision_file(op: Operations, name: str) -> None:
    execute_sql(op, (MIGRATION_SQL_DIR / name).read_text(encoding="utf-8"))


def sql_revision(revision: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """A revision's upgrade() and downgrade(): migrations/sql/<revision>.up.sql and .down.sql."""
    from alembic import op

    def upgrade() -> None:
        run_revision_file(op, f"{revision}.up.sql")

    def downgrade() -> None:
        run_revision_file(op, f"{revision}.down.sql")

    return upgrade, downgrade


def alembic_config(url: str | None = None, output: io.StringIO | None = None) -> Config:
    config = Config(str(ALEMBIC_INI), output_buffer=output)
    if url is not None:
        config.attributes["url"] = url
    return config


class MigrationRefused(ConfigurationError):
    """A migration asked for in the wrong direction, or to a revision that does not exist (exit 2)."""


# -- where the database is, and where a revision is ---------------------------------------------
def revisions() -> list[str]:
    """Every revision, oldest first (the chain is linear)."""
    from alembic.script import ScriptDirectory

    return [r.revision for r in reversed(list(ScriptDirectory.from_config(alembic_config()).walk_revisions()))]


def current_revision(url: str) -> str | None:
    """The database's revision (None: base, nothing migrated), read with psycopg."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=10, autocommit=True) as conn:
            if conn.execute("SELECT to_regclass('alembic_version')").fetchone()[0] is None:
                return None
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except psycopg.OperationalError as error:
        raise DatabaseUnavailable(f"cannot migrate: {first_line(error)}") from error
    return row[0] if row else None


def resolve(revision: str, current: str | None) -> str | None:
    """A revision argument as an id (None: base): head, base, an id (or its unique prefix), or a
    step relative to the database's revision (-1, +2). MigrationRefused for anything else."""
    chain = revisions()
    position = chain.index(current) if current in chain else -1
    if revision in ("head", "heads"):
        return chain[-1]
    if revision == "base":
        return None
    if re.fullmatch(r"[+-][0-9]+", revision):
        target = position + int(revision)
        if not -1 <= target < len(chain):
            raise MigrationRefused(f"revision {revision} is out of range: the database is at {current or 'base'}, "
                                   f"revisions go from base to {chain[-1]}")
        return chain[target] if target >= 0 else None
    matches = [r for r in chain if r == revision] or [r for r in chain if r.startswith(revision)]
    if len(matches) != 1 or not revision:
        raise MigrationRefused(f"no revision {revision!r}: give head, base, -1 or one of {', '.join(chain)}")
    return matches[0]


def _position(revision: str | None) -> int:
    return -1 if revision is None else revisions().index(revision)


# -- what a downgrade drops ----------------------------------------------------------------------
_COMMENT = re.compile(r"--[^\n]*")
_DROP_TABLE = re.compile(r"\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([\w.]+(?:\s*,\s*[\w.]+)*)", re.IGNORECASE)
_DROP_COLUMN = re.compile(r"\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?([\w.]+)\s+DROP\s+(?:COLUMN\s+)?"
                          r"(?!CONSTRAINT\b)(?:IF\s+EXISTS\s+)?(\w+)", re.IGNORECASE)
# A dropped column that only copied another table's value (kept equal to it by a foreign key)
# loses nothing; its down file says so, in a comment line of its own:
#   -- derived column agent_versions.scope_tenant_id: a copy of agents.scope_tenant_id
_DERIVED_COLUMN = re.compile(r"^--\s*derived column\s+([\w.]+)\.(\w+)\s*:\s*a copy of\s+([\w.]+)\s*$",
                             re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Dropped:
    """A table or a column a downgrade removes, and how much data goes with it."""

    revision: str
    table: str
    column: str | None = None
    rows: int | None = None  # rows of the table, or rows with a non-empty value in the column
    copy_of: str | None = None  # the column a derived one copied ("agents.scope_tenant_id"): no data lost

    def describe(self) -> str:
        if self.column is None:
            return f"table {self.table}: {self.rows} row(s)"
        if self.copy_of is not None:
            return f"column {self.table}.{self.column}: a copy of {self.copy_of}, nothing lost"
        return f"column {self.table}.{self.column}: {self.rows} row(s) with a value"


def dropped_by(revision: str) -> list[Dropped]:
    """The tables and columns `<revision>.down.sql` drops, read from the file itself."""
    text = (MIGRATION_SQL_DIR / f"{revision}.down.sql").read_text(encoding="utf-8")
    copies = {(table, column): source for table, column, source in _DERIVED_COLUMN.findall(text)}
    sql = _COMMENT.sub("", text)
    found = [Dropped(revision, table.strip()) for match in _DROP_TABLE.finditer(sql) for table in match[1].split(",")]
    found += [Dropped(revision, table, column, copy_of=copies.get((table, column)))
              for table, column in _DROP_COLUMN.findall(sql)]
    return found


@dataclass
class MigrationPlan:
    """What `migrate --revision R` would do: from where, to where, and the data it would drop."""

    before: str | None
    target: str | None
    drops: list[Dropped] = field(default_factory=list)

    @property
    def direction(self) -> str:
        difference = _position(self.target) - _position(self.before)
        return "upgrade" if difference > 0 else "downgrade" if difference < 0 else "none"

    @property
    def loses_data(self) -> bool:
        return any(d.rows for d in self.drops)


def plan(url: str, revision: str) -> MigrationPlan:
    """Where the database is and where `revision` is; for a downgrade, what it drops and how many
    rows, counted now with the migrating login (the owner sees every tenant's rows)."""
    before = current_revision(url)
    target = resolve(revision, before)
    result = MigrationPlan(before, target)
    if result.direction == "downgrade":
        chain = revisions()
        undone = chain[_position(target) + 1:_position(before) + 1]
        result.drops = _count(url, [d for r in reversed(undone) for d in dropped_by(r)])
    return result


def _count(url: str, drops: list[Dropped]) -> list[Dropped]:
    import psycopg
    from psycopg import sql

    counted = []
    with psycopg.connect(url, connect_timeout=10) as conn, conn.transaction():
        conn.execute("SET TRANSACTION READ ONLY")
        for d in drops:
            if d.copy_of is not None:  # nothing of its own to count
                counted.append(d)
                continue
            if conn.execute("SELECT to_regclass(%s)", (d.table,)).fetchone()[0] is None:
                rows = 0
            elif d.column is None:
                rows = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(*d.table.split(".")))).fetchone()[0]
            else:
                exists = conn.execute("SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass(%s) "
                                      "AND attname = %s AND NOT attisdropped", (d.table, d.column)).fetchone()[0]
                query = sql.SQL("SELECT count(*) FROM {table} WHERE {column} IS NOT NULL AND {column}::text <> ''").format(
                    table=sql.Identifier(*d.table.split(".")), column=sql.Identifier(d.column))
                rows = conn.execute(query).fetchone()[0] if exists else 0
            counted.append(Dropped(d.revision, d.table, d.column, rows))
    return counted


# -- running -------------------------------------------------------------------------------------
def upgrade(url: str, revision: str = "head") -> tuple[str | None, str | None]:
    """Upgrade to `revision`; (before, after) as read from the database. A revision below the
    database's is refused (MigrationRefused): that is a downgrade, and `downgrade` says so."""
    before = current_revision(url)
    target = resolve(revision, before)
    if _position(target) < _position(before):
        raise MigrationRefused(f"the database is at {before}; {target or 'base'} is below it: that is a downgrade, "
                               "which drops what later revisions added (use --downgrade)")
    _run(command.upgrade, url, target or "base")
    return before, _reached(url, target)


def downgrade(url: str, revision: str) -> tuple[str | None, str | None]:
    """Downgrade to `revision`; (before, after). A revision above the database's is refused."""
    before = current_revision(url)
    target = resolve(revision, before)
    if _position(target) > _position(before):
        raise MigrationRefused(f"the database is at {before or 'base'}; {target} is above it: that is an upgrade, "
                               "not a downgrade")
    _run(command.downgrade, url, target or "base")
    return before, _reached(url, target)


def _reached(url: str, target: str | None) -> str | None:
    after = current_revision(url)
    if after != target:
        raise RegistryError(f"migration to {target or 'base'} did not reach it: the database is at {after or 'base'}")
    return after


def _run(step, url: str, revision: str) -> None:
    from sqlalchemy.exc import DBAPIError, OperationalError

    try:
        step(alembic_config(url), revision)
    except OperationalError as error:
        raise DatabaseUnavailable(f"cannot migrate: {first_line(error.orig)}") from error
    except DBAPIError as error:
        raise RegistryError(f"migration to {revision} failed: {first_line(error.orig)}") from error
    except CommandError as error:
        raise RegistryError(f"migration to {revision} failed: {error}") from error


def offline_script(revision: str = "head") -> str:
    """The upgrade script `alembic upgrade head --sql` prints, with no database."""
    output = io.StringIO()
    try:
        command.upgrade(alembic_config(None, output), revision, sql=True)
    except CommandError as error:
        raise MigrationRefused(f"no revision {revision!r} to script: {error}") from error
    return output.getvalue()


def offline_downgrade_script(revision: str, start: str = "head") -> str:
    """The downgrade script from `start` down to `revision` (`alembic downgrade head:R --sql`)."""
    if start == "head" and revision in ("head", "heads", revisions()[-1]):
        raise MigrationRefused("a downgrade script needs a --revision below head (base, or e.g. "
                               f"{revisions()[-2] if len(revisions()) > 1 else 'base'})")
    output = io.StringIO()
    try:
        command.downgrade(alembic_config(None, output), f"{start}:{revision}", sql=True)
    except CommandError as error:
        raise MigrationRefused(f"cannot script a downgrade from {start} to {revision}: {error}") from error
    return output.getvalue()
