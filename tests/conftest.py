"""Test fixtures: one throwaway PostgreSQL per session, the schema built once into a template
database, and a fresh clone of it for each test (pytest-postgresql's janitor does the
template and the cloning).

The server is registry.embedded's own, so the suite runs as root too (CI does): the server's
programs drop to an unprivileged user.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from pytest_postgresql import factories
from pytest_postgresql.executors import NoopExecutor
from pytest_postgresql.janitor import DatabaseJanitor

from registry.embedded import HOST, SUPERUSER, EmbeddedServer, throwaway_server
from registry.replication import throwaway_primary_and_standby
from registry.schema import apply_schema


@pytest.fixture(scope="session")
def pg_server() -> Iterator[EmbeddedServer]:
    with throwaway_server() as server:
        yield server


def load_schema_from_sql(host: str, port: int, user: str, dbname: str, password: str | None, **_: object) -> None:
    with psycopg.connect(host=host, port=port, user=user, dbname=dbname, password=password) as conn:
        apply_schema(conn)


@pytest.fixture(scope="session")
def registry_proc(pg_server: EmbeddedServer) -> Iterator[NoopExecutor]:
    """The schema, built once from sql/ into a template database."""
    executor = NoopExecutor(host=HOST, port=pg_server.port, user=SUPERUSER, options="", dbname="registry_test")
    janitor = DatabaseJanitor(user=SUPERUSER, host=HOST, port=pg_server.port, dbname=executor.template_dbname,
                              as_template=True)
    with janitor:
        janitor.load(load_schema_from_sql)
        yield executor


postgresql = factories.postgresql("registry_proc")


@pytest.fixture
def db(postgresql: psycopg.Connection) -> psycopg.Connection:
    """A connection to this test's own clone of the schema; each statement commits."""
    postgresql.autocommit = True
    # CREATE DATABASE … TEMPLATE copies the schema but not the database's own privileges:
    # put back what revision 0007 does to them (test_migrations checks the revision does it).
    postgresql.execute(sql.SQL("REVOKE TEMPORARY ON DATABASE {db} FROM PUBLIC; "
                               "GRANT TEMPORARY ON DATABASE {db} TO registry_owner, registry_admin")
                       .format(db=sql.Identifier(postgresql.info.dbname)))
    return postgresql


@pytest.fixture
def db_url(db: psycopg.Connection) -> str:
    info = db.info
    return f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname}"


_empty_names = itertools.count()


@pytest.fixture
def empty_db_url(pg_server: EmbeddedServer) -> Iterator[str]:
    """A URL to a new, empty database (for migrations), dropped afterwards."""
    name = f"empty_{next(_empty_names)}"
    with DatabaseJanitor(user=SUPERUSER, host=HOST, port=pg_server.port, dbname=name):
        yield pg_server.url(name)


@pytest.fixture
def demo(empty_db_url: str, monkeypatch, capsys) -> str:
    """A migrated, seeded database the CLI reaches through REGISTRY_DATABASE_URL (as a user runs
    `registry demo` first), with an actor for the history; its demo output is swallowed."""
    from registry.cli import main

    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    monkeypatch.setenv("REGISTRY_ACTOR", "ana@acme")
    assert main(["demo"]) == 0
    capsys.readouterr()
    return empty_db_url


@pytest.fixture(scope="session")
def replica_pair() -> Iterator[tuple[str, str]]:
    """A primary and its streaming hot standby (pg_basebackup -R), both throwaway servers run as
    an unprivileged user, with the schema built on the primary: (primary URL, standby URL) of
    the database `registry`. Shared by the session: tests make tenants of their own."""
    with throwaway_primary_and_standby() as (primary, standby):
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            apply_schema(conn)
        yield primary.url(), standby.url()
