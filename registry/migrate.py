"""Running the migrations: Alembic as a thin runner over SQL files.

Each revision in migrations/versions/ executes migrations/sql/<revision>.up.sql or
.down.sql; migrations/env.py re-creates the replaceable objects (sql/replaceable/) after
every upgrade. This module is what the CLI and the tests call; `alembic` works directly too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from alembic.operations import Operations

from registry.errors import DatabaseUnavailable, RegistryError, first_line
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


def upgrade(url: str, revision: str = "head") -> None:
    _run(command.upgrade, url, revision)


def downgrade(url: str, revision: str) -> None:
    _run(command.downgrade, url, revision)


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
    command.upgrade(alembic_config(None, output), revision, sql=True)
    return output.getvalue()
