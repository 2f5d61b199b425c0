"""Which database the registry talks to, and connecting to it.

REGISTRY_DATABASE_URL names a server you run; without it, the registry starts (and keeps)
its own embedded PostgreSQL (registry.embedded).
"""

from __future__ import annotations

import os

import psycopg
from psycopg.conninfo import conninfo_to_dict

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
