"""Alembic environment: a thin runner over the SQL of migrations/sql/ and sql/replaceable/.

The database comes from the URL the caller passes (registry.migrate) or from
REGISTRY_DATABASE_URL. Offline (`--sql`), nothing connects: the script is printed.

Replaceable objects (views, functions, triggers) are not versioned by revisions: every run
drops them first, so no revision has to work around a view that depends on a table it
changes, and re-creates them from sql/replaceable/ at the end unless the database was
taken down to base. Everything happens in one transaction.
"""

import os

from alembic import context
from sqlalchemy import create_engine, pool, text

from registry import schema
from registry.db import URL_VARIABLE, sqlalchemy_url
from registry.migrate import escape_binds

config = context.config


def _url() -> str | None:
    return config.attributes.get("url") or os.environ.get(URL_VARIABLE) or None


def _goes_to_base() -> bool:
    destination = context.get_revision_argument()
    if isinstance(destination, (tuple, list)):
        destination = destination[-1] if destination else "base"
    return destination in (None, "base")


def _run(execute_replaceable_at_end) -> None:
    with context.begin_transaction():
        context.execute(text(escape_binds(schema.drop_replaceable_sql())))
        context.run_migrations()
        if execute_replaceable_at_end():
            context.execute(text(escape_binds(schema.create_replaceable_sql())))


def run_offline() -> None:
    context.configure(
        url=sqlalchemy_url(_url() or "postgresql://offline/registry"),
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        transactional_ddl=True,
    )
    _run(lambda: not _goes_to_base())


def run_online() -> None:
    url = _url()
    if url is None:
        raise SystemExit(f"{URL_VARIABLE} is not set: say which database to migrate, or use --sql")
    engine = create_engine(sqlalchemy_url(url), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, transactional_ddl=True)

        def at_head_or_above_base() -> bool:
            return bool(connection.execute(text("SELECT 1 FROM alembic_version")).first())

        _run(at_head_or_above_base)
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
