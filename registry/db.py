"""Which database the registry talks to, and connecting to it.

REGISTRY_DATABASE_URL names a server you run; without it, the registry starts (and keeps)
its own embedded PostgreSQL (registry.embedded).
"""

from __future__ import annotations

import os

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from registry.embedded import EmbeddedServer, default_data_dir
from registry.errors import ConfigurationError, DatabaseUnavailable, first_line
from registry.json_loading import use_fast_json

URL_VARIABLE = "REGISTRY_DATABASE_URL"


def configured_url() -> str | None:
    return os.environ.get(URL_VARIABLE) or None


def database_url() -> str:
    """The configured URL, or the embedded server's (started on demand)."""
    url = configured_url()
    if url is not None:
        check_url(url)
        return url
    return EmbeddedServer(default_data_dir()).start()


def check_url(url: str) -> None:
    """Refuse a malformed URL before any connection attempt, naming the variable."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigurationError(
            f"{URL_VARIABLE} must be a postgresql:// URL, e.g. postgresql://user@localhost:5432/registry"
        )
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise ConfigurationError(f"{URL_VARIABLE} is not a valid PostgreSQL URL: {error}") from error


def connect(url: str | None = None, **kwargs) -> psycopg.Connection:
    """A psycopg connection, with an unreachable server reported as one clear line."""
    url = url or database_url()
    try:
        conn = psycopg.connect(url, connect_timeout=10, **kwargs)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailable(f"cannot connect to the database: {first_line(error)}") from error
    use_fast_json(conn)
    return conn


def sqlalchemy_url(url: str) -> str:
    """Alembic speaks SQLAlchemy: the same URL, with psycopg 3 named as the driver."""
    scheme, rest = url.split("://", 1)
    return f"postgresql+psycopg://{rest}"


# What a connection's last user may have left in its session, undone before its next user:
# session settings (search_path, a session-wide registry.tenant_id) and role, temporary objects
# (a temp view named "agents" would shadow the real one), prepared statements (one re-prepared
# under psycopg's own name would answer the next user's query), cursors, LISTENs, advisory
# locks. DISCARD ALL would also drop every cached plan (PL/pgSQL's included), and re-planning
# adopt_conversation_agent costs ~0.45 ms a call, so the parts are listed instead. psycopg
# sees the DEALLOCATE ALL and forgets its own prepared statements too.
RESET_SESSION = ("RESET ROLE; RESET ALL; DISCARD TEMP; DEALLOCATE ALL; CLOSE ALL; UNLISTEN *; "
                 "SELECT pg_advisory_unlock_all()")


def reset_session(conn: psycopg.Connection) -> None:
    """Clean a connection between two users (outside any transaction)."""
    autocommit = conn.autocommit
    conn.autocommit = True
    try:
        conn.execute(RESET_SESSION)
    finally:
        conn.autocommit = autocommit


class RegistryPool(ConnectionPool):
    """A psycopg pool whose connections are reset every time they come back (psycopg_pool's
    `reset=` callback) and decode jsonb with registry.json_loading's loader. Give it to Registry
    to serve several tenants from one process: what one tenant's transaction leaves in a session
    is gone before the next checkout. With a plain ConnectionPool, Registry resets at checkout
    instead, one round trip more per transaction."""

    resets_sessions = True

    def __init__(self, conninfo: str | None = None, **kwargs) -> None:
        kwargs.setdefault("open", True)
        super().__init__(conninfo or database_url(), configure=use_fast_json, reset=reset_session, **kwargs)
