"""Alembic environment: a thin runner over the SQL of migrations/sql/ and sql/replaceable/.

The database comes from the URL the caller passes (registry.migrate) or from
REGISTRY_DATABASE_URL. Offline (`--sql`), nothing connects: the script is printed.

Replaceable objects (views, functions, triggers) are not versioned by revisions: every run
drops them first, so no revision has to work around a view that depends on a table it
changes, and re-creates them from sql/replaceable/ at the end unless the database was
taken down to base (files marked "-- since revision N" only from revision N on). Everything happens in one transaction.
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


def _destination() -> str | None:
    """Where an offline run ends: a revision id, or None for base."""
    destination = context.get_revision_argument()
    if isinstance(destination, (tuple, list)):
        destination = destination[-1] if destination else None
    if destination in (None, "base"):
        return None
    if destination == "heads" or destination == "head":
        return context.get_context().script.get_current_head()
    return destination


def _run(revision_at_end) -> None:
    with context.begin_transaction():
        context.execute(text(escape_binds(schema.drop_replaceable_sql())))
        context.run_migrations()
        revision = revision_at_end()
        if revision is not None:
            context.execute(text(escape_binds(schema.create_replaceable_sql(revision))))


def run_offline() -> None:
    context.configure(
        url=sqlalchemy_url(_url() or "postgresql://offline/registry"),
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        transactional_ddl=True,
    )
    _run(_destination)


def run_online() -> None:
    url = _url()
    if url is None:
        raise SystemExit(f"{URL_VARIABLE} is not set: say which database to migrate, or use --sql")
    engine = create_engine(sqlalchemy_url(url), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, transactional_ddl=True)

        def current_revision() -> str | None:
            row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
            return row[0] if row else None

        _run(current_revision)
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
