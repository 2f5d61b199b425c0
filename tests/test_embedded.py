"""The embedded PostgreSQL: created on first use, reused after, stopped on demand, and a clear
message when no server binaries exist. (The whole suite runs on one, as root in CI.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    monkeypatch.delenv("REGISTRY_PG_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigurationError, match="apt-get install postgresql"):
        embedded.find_pg_bin()


def test_a_wrong_pg_bin_is_refused_not_passed_over(monkeypatch, tmp_path):
    (tmp_path / "initdb").write_text("")
    monkeypatch.setenv("REGISTRY_PG_BIN", str(tmp_path))
    with pytest.raises(ConfigurationError, match=f"REGISTRY_PG_BIN={tmp_path} holds no pg_ctl, postgres"):
        embedded.find_pg_bin()


def test_pg_bin_names_the_programs_directory(monkeypatch):
    found = embedded.find_pg_bin()
    monkeypatch.setenv("REGISTRY_PG_BIN", str(found))
    assert embedded.find_pg_bin() == found


def registry_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("REGISTRY_")}
    return subprocess.run([sys.executable, "-m", "registry.cli", *args], env=clean | env, cwd="/",
                          capture_output=True, text=True, timeout=60)


def refusal(result: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of a configuration error (exit 2), with no traceback."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize("args", [["db", "start"], ["agents", "--tenant", "acme"], ["demo"]])
def test_unusable_settings_are_refused_on_one_line(args, tmp_path):
    assert "REGISTRY_PG_BIN=/nonexistent holds no initdb" in refusal(registry_cli(*args, REGISTRY_PG_BIN="/nonexistent"))
    assert "REGISTRY_DATA_DIR=/proc/x/y cannot hold the embedded PostgreSQL: /proc/x: " in refusal(
        registry_cli(*args, REGISTRY_DATA_DIR="/proc/x/y"))


def test_a_data_dir_that_is_a_file_or_holds_other_files_is_refused(data_dir):
    data_dir.write_text("not a directory")
    assert f"REGISTRY_DATA_DIR={data_dir} cannot hold" in refusal(registry_cli("db", "start", REGISTRY_DATA_DIR=str(data_dir)))
    data_dir.unlink()
    data_dir.mkdir()
    (data_dir / "notes.txt").write_text("mine")
    assert "holds files but no PostgreSQL data" in refusal(registry_cli("db", "start", REGISTRY_DATA_DIR=str(data_dir)))
    assert (data_dir / "notes.txt").read_text() == "mine"
