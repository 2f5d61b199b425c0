"""The embedded PostgreSQL: created on first use, reused after, stopped on demand, and a clear
message when no server binaries exist. (The whole suite runs on one, as root in CI.)"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from registry import embedded
from registry.embedded import EmbeddedServer
from registry.errors import ConfigurationError


@pytest.fixture
def data_dir():
    parent = Path(tempfile.mkdtemp(prefix="registry-embedded-test-"))
    parent.chmod(0o755)
    yield parent / "data"
    server_dir = parent / "data"
    if (server_dir / "PG_VERSION").exists():
        EmbeddedServer(server_dir).stop()
    shutil.rmtree(parent, ignore_errors=True)


def test_created_on_first_use_reused_after_and_stopped(data_dir):
    server = EmbeddedServer(data_dir, throwaway=True)
    assert not server.is_initialised()
    url = server.start()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (x int)")
        conn.execute("INSERT INTO kept VALUES (42)")
    assert server.stop() is True
    assert not server.is_running()
    assert server.stop() is False

    again = EmbeddedServer(data_dir)
    assert again.start() == url  # same port, same database
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT x FROM kept").fetchone() == (42,)


def test_missing_binaries_say_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(embedded, "DEBIAN_PG_ROOT", tmp_path / "none")
    monkeypatch.setenv("REGISTRY_PG_BIN", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigurationError, match="apt-get install postgresql"):
        embedded.find_pg_bin()
