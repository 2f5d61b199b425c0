"""A PgBouncer in transaction mode in front of the test server, for tests/test_pooler.py.

It runs as the same unprivileged user as the throwaway PostgreSQL (PgBouncer refuses root too),
from a temporary directory holding its configuration, log and pid file, on a free port, with
every database of the server behind it (`* =`) and one server connection per database and user
(default_pool_size = 1): two clients' transactions then run on the same server session, which
is what isolation across pooled connections has to survive.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.embedded import HOST, SUPERUSER, EmbeddedServer, _free_port, _server_user

INSTALL_HINT = ("pgbouncer is not installed, and the pooler tests need a real one: install it "
                "(Debian/Ubuntu: `apt-get install pgbouncer`; .ci/run does this) and run the tests again")


def pgbouncer_program() -> str:
    program = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if Path(p).is_file()), None)
    if program is None:
        pytest.fail(INSTALL_HINT, pytrace=False)  # never a silent pass or skip
    return program


@contextlib.contextmanager
def pgbouncer(server: EmbeddedServer, pool_size: int = 1) -> Iterator[int]:
    """A running PgBouncer in transaction mode in front of `server`; yields its port."""
    program = pgbouncer_program()
    folder = Path(tempfile.mkdtemp(prefix="registry-pgbouncer-"))
    folder.chmod(0o755)
    port = _free_port()
    (folder / "userlist.txt").write_text(f'"{SUPERUSER}" ""\n')
    (folder / "pgbouncer.ini").write_text(f"""\
[databases]
* = host={HOST} port={server.port}

[pgbouncer]
listen_addr = {HOST}
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/userlist.txt
pool_mode = transaction
default_pool_size = {pool_size}
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
admin_users = {SUPERUSER}
""")
    user = _server_user()
    kwargs: dict = {}
    if user is not None:
        for path in folder.iterdir():
            shutil.chown(path, user.pw_uid, user.pw_gid)
        shutil.chown(folder, user.pw_uid, user.pw_gid)
        kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    process = subprocess.Popen([program, str(folder / "pgbouncer.ini")], cwd="/", stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, **kwargs)
    try:
        _wait_listening(port, process, folder)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_listening(port: int, process: subprocess.Popen, folder: Path) -> None:
    deadline = time.monotonic() + 10
    while True:
        if process.poll() is not None:
            log = (folder / "pgbouncer.log").read_text(errors="replace") if (folder / "pgbouncer.log").exists() else ""
            pytest.fail(f"pgbouncer exited ({process.returncode}): {process.stderr.read().decode()} {log[-500:]}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.2):
            return
        assert time.monotonic() < deadline, "pgbouncer did not start listening"
        time.sleep(0.05)
