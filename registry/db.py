"""Which database the registry talks to, and connecting to it.

REGISTRY_DATABASE_URL names a server you run (the primary: every write goes there); without it,
the registry starts (and keeps) its own embedded PostgreSQL (registry.embedded). Three more
settings take the registry past one server (docs/scale.md, ADR 0015):

    REGISTRY_READ_URL    one or more streaming replicas, comma-separated: reads go there
                         (registry.replicas), with read-your-writes by WAL position
    REGISTRY_POOLER      `transaction` when the URLs go through PgBouncer (or any pooler) in
                         transaction mode: no server-side prepared statements, and LISTEN only
                         on REGISTRY_LISTEN_URL
    REGISTRY_LISTEN_URL  a direct URL of the primary for LISTEN (watch, ScopeCache); without it,
                         the primary's URL — refused behind a pooler, where LISTEN cannot work
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
READ_URL_VARIABLE = "REGISTRY_READ_URL"
POOLER_VARIABLE = "REGISTRY_POOLER"
LISTEN_URL_VARIABLE = "REGISTRY_LISTEN_URL"
# What REGISTRY_POOLER may say: nothing (direct connections) or the pool mode that changes what a
# client may do. Session mode needs nothing special, so it is not a value of its own.
POOLER_MODES = ("none", "transaction")


def configured_url() -> str | None:
    return os.environ.get(URL_VARIABLE) or None


def database_url() -> str:
    """The configured URL, or the embedded server's (started on demand)."""
    url = configured_url()
    if url is not None:
        check_url(url)
        return url
    return EmbeddedServer(default_data_dir()).start()


def check_url(url: str, variable: str = URL_VARIABLE) -> None:
    """Refuse a malformed URL before any connection attempt, naming the variable."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigurationError(
            f"{variable} must be a postgresql:// URL, e.g. postgresql://user@localhost:5432/registry"
        )
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise ConfigurationError(f"{variable} is not a valid PostgreSQL URL: {error}") from error


def read_urls() -> list[str]:
    """The replicas of REGISTRY_READ_URL (comma-separated), each checked; [] when unset."""
    value = os.environ.get(READ_URL_VARIABLE, "")
    urls = [part.strip() for part in value.split(",")]
    if not value.strip():
        return []
    if any(not url for url in urls):
        raise ConfigurationError(f"{READ_URL_VARIABLE} has an empty entry: give one or more postgresql:// URLs "
                                 "separated by commas, without a trailing comma")
    for url in urls:
        check_url(url, READ_URL_VARIABLE)
    return urls


def pooler_mode() -> str:
    """REGISTRY_POOLER: 'none' (the default) or 'transaction'; anything else is refused."""
    mode = (os.environ.get(POOLER_VARIABLE) or "none").strip().lower()
    if mode not in POOLER_MODES:
        raise ConfigurationError(
            f"{POOLER_VARIABLE}={os.environ.get(POOLER_VARIABLE)!r} is not a pool mode the registry knows: "
            "set it to 'transaction' when connections go through PgBouncer in transaction mode, or unset it"
        )
    return mode


def behind_pooler(pooler: bool | None = None) -> bool:
    """Whether connections go through a pooler in transaction mode: `pooler`, else REGISTRY_POOLER."""
    return pooler_mode() == "transaction" if pooler is None else pooler


def connection_options(pooler: bool | None = None, given: dict | None = None) -> dict:
    """What psycopg must be told for the URLs' path to the server. Behind a pooler in transaction
    mode: no server-side prepared statements (psycopg prepares a statement on its 5th execution,
    and PgBouncer before 1.21 — Debian 12 ships 1.18 — sends the next transaction's EXECUTE to
    another server connection, where the statement does not exist)."""
    if not behind_pooler(pooler):
        return {}
    if (given or {}).get("prepare_threshold", None) is not None:
        raise ConfigurationError(
            f"prepare_threshold={given['prepare_threshold']!r} asks for server-side prepared statements, which a pooler "
            f"in transaction mode cannot route ({POOLER_VARIABLE}=transaction): leave prepare_threshold unset"
        )
    return {"prepare_threshold": None}


def listen_url(pooler: bool | None = None) -> str:
    """Where LISTEN goes: REGISTRY_LISTEN_URL, else the primary's URL — refused behind a pooler in
    transaction mode, which hands each transaction to any server connection, so a LISTEN would
    be registered on a connection that then serves someone else and its notifications lost."""
    url = os.environ.get(LISTEN_URL_VARIABLE) or None
    if url is not None:
        check_url(url, LISTEN_URL_VARIABLE)
        if behind_pooler(pooler) and url == configured_url():
            raise ConfigurationError(
                f"{LISTEN_URL_VARIABLE} is the same URL as {URL_VARIABLE}, which goes through a pooler "
                f"({POOLER_VARIABLE}=transaction): LISTEN needs a direct connection to the primary; "
                f"set {LISTEN_URL_VARIABLE} to the primary's own host and port"
            )
        return url
    if behind_pooler(pooler):
        raise ConfigurationError(
            f"LISTEN cannot work through a pooler in transaction mode ({POOLER_VARIABLE}=transaction): "
            f"set {LISTEN_URL_VARIABLE} to a direct postgresql:// URL of the primary, not the pooler's"
        )
    return database_url()


def connect(url: str | None = None, *, pooler: bool | None = None, **kwargs) -> psycopg.Connection:
    """A psycopg connection, with an unreachable server reported as one clear line. Behind a
    pooler (`pooler`, else REGISTRY_POOLER), without server-side prepared statements."""
    url = url or database_url()
    kwargs |= connection_options(pooler, kwargs)
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

    def __init__(self, conninfo: str | None = None, *, pooler: bool | None = None, **kwargs) -> None:
        kwargs.setdefault("open", True)
        options = connection_options(pooler, kwargs.get("kwargs"))
        if options:
            kwargs["kwargs"] = (kwargs.get("kwargs") or {}) | options
        super().__init__(conninfo or database_url(), configure=use_fast_json, reset=reset_session, **kwargs)
