"""A streaming hot standby of an embedded server, for tests and the benchmark (never production:
a real deployment's replicas are its DBA's).

`pg_basebackup -R` copies the primary and writes the standby's connection settings; the copy
runs on a port of its own and replays the primary's WAL as it streams. As root, both servers'
programs run as the same unprivileged user (registry.embedded).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from registry.embedded import HOST, SUPERUSER, EmbeddedServer, _free_port


def start_standby(primary: EmbeddedServer, data_dir: Path) -> EmbeddedServer:
    """A hot standby of a running `primary` in `data_dir` (absent or empty), started."""
    standby = EmbeddedServer(data_dir, throwaway=primary.throwaway)
    standby._prepare_directory()
    standby._run("pg_basebackup", "-h", HOST, "-p", str(primary.port), "-U", SUPERUSER, "-D", str(standby.data_dir),
                 "-R", "-X", "stream", "-c", "fast", "--no-sync")
    conf = standby.data_dir / "postgresql.conf"
    # The copy carries the primary's port: the standby takes one of its own.
    conf.write_text(re.sub(r"(?m)^port = \d+", f"port = {_free_port()}", conf.read_text()))
    (standby.data_dir / "server.log").unlink(missing_ok=True)
    standby.start()
    return standby


@contextlib.contextmanager
def throwaway_primary_and_standby() -> Iterator[tuple[EmbeddedServer, EmbeddedServer]]:
    """A primary and its streaming hot standby in a fresh temporary directory, removed on exit."""
    parent = Path(tempfile.mkdtemp(prefix="registry-pair-"))
    parent.chmod(0o755)  # the servers' user must be able to enter it
    primary = EmbeddedServer(parent / "primary", throwaway=True)
    standby = None
    try:
        primary.start()
        standby = start_standby(primary, parent / "standby")
        yield primary, standby
    finally:
        if standby is not None:
            standby.stop()
        primary.stop()
        shutil.rmtree(parent, ignore_errors=True)
