"""A local PostgreSQL the registry manages itself, for when no database URL is given.

The server lives in a data directory (created on first use, reused after), listens on
127.0.0.1 only, on a port chosen once at creation, and trusts local connections: it is a
developer's and a demo's database, never a production one.

PostgreSQL refuses to run as root. When the registry runs as root (CI does), the server's
programs run as an unprivileged system user instead (`postgres` if it exists, else
`nobody`) and the data directory is given to that user.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg

from registry.errors import ConfigurationError, DatabaseUnavailable, first_line

SUPERUSER = "postgres"
DATABASE = "registry"
HOST = "127.0.0.1"
# Debian and Ubuntu install each major version's server programs under /usr/lib/postgresql/N/bin.
DEBIAN_PG_ROOT = Path("/usr/lib/postgresql")
SERVER_PROGRAMS = ("initdb", "pg_ctl", "postgres")
PG_BIN_VARIABLE = "REGISTRY_PG_BIN"
DATA_DIR_VARIABLE = "REGISTRY_DATA_DIR"

_INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found. Install them "
    "(Debian/Ubuntu: `apt-get install postgresql`; macOS: `brew install postgresql`), or point "
    "REGISTRY_PG_BIN at their directory, or set REGISTRY_DATABASE_URL to use a server you run."
)


def find_pg_bin() -> Path:
    """The directory holding initdb and pg_ctl: REGISTRY_PG_BIN, pg_config, Debian's layout, PATH.

    REGISTRY_PG_BIN, when set, is the answer or an error: a wrong setting is never passed over
    for another server's programs."""
    if env := os.environ.get(PG_BIN_VARIABLE):
        missing = [tool for tool in SERVER_PROGRAMS if not (Path(env) / tool).is_file()]
        if missing:
            raise ConfigurationError(
                f"{PG_BIN_VARIABLE}={env} holds no {', '.join(missing)}: point it at the directory of "
                f"PostgreSQL's server programs (e.g. /usr/lib/postgresql/15/bin), or unset it"
            )
        return Path(env)
    candidates: list[Path] = []
    if pg_config := shutil.which("pg_config"):
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True)
            candidates.append(Path(out.stdout.strip()))
    debian = sorted(DEBIAN_PG_ROOT.glob("*/bin"), key=_major_version, reverse=True)
    candidates += debian
    if initdb := shutil.which("initdb"):
        candidates.append(Path(initdb).parent)
    for directory in candidates:
        if all((directory / tool).is_file() for tool in SERVER_PROGRAMS):
            return directory
    raise ConfigurationError(_INSTALL_HINT)


def _major_version(bin_dir: Path) -> int:
    try:
        return int(bin_dir.parent.name)
    except ValueError:
        return 0


def default_data_dir() -> Path:
    if env := os.environ.get(DATA_DIR_VARIABLE):
        return Path(env)
    if os.geteuid() == 0:
        # root's home is usually closed to the unprivileged user the server runs as.
        return Path("/var/lib/registry/postgres")
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "registry" / "postgres"


def _server_user() -> pwd.struct_passwd | None:
    """The account the server's programs run as: None means the current one."""
    if os.geteuid() != 0:
        return None
    for name in filter(None, (os.environ.get("REGISTRY_PG_USER"), "postgres", "nobody")):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ConfigurationError(
        "running as root, and no unprivileged user to run PostgreSQL as: "
        "create one (e.g. `useradd postgres`) or set REGISTRY_PG_USER"
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class EmbeddedServer:
    """One data directory and the server that runs on it."""

    data_dir: Path
    throwaway: bool = False

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir).absolute()
        self.bin_dir = find_pg_bin()
        self.user = _server_user()

    # -- what a client needs ---------------------------------------------------------
    @property
    def port(self) -> int:
        for line in (self.data_dir / "postgresql.conf").read_text().splitlines():
            if line.startswith("port = "):
                return int(line.split("=", 1)[1].split("#", 1)[0])
        raise ConfigurationError(f"{self.data_dir}/postgresql.conf names no port; remove the directory to start over")

    def url(self, dbname: str = DATABASE) -> str:
        return f"postgresql://{SUPERUSER}@{HOST}:{self.port}/{dbname}"

    # -- lifecycle ---------------------------------------------------------------------
    def is_initialised(self) -> bool:
        return (self.data_dir / "PG_VERSION").is_file()

    def is_running(self) -> bool:
        if not self.is_initialised():
            return False
        result = self._run("pg_ctl", "status", "-D", str(self.data_dir), check=False)
        return result.returncode == 0

    def start(self) -> str:
        """Create the data directory if needed, start the server if stopped; return the URL."""
        with self._lock():
            if not self.is_initialised():
                self._initdb()
            if not self.is_running():
                log = self.data_dir / "server.log"
                result = self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data_dir),
                                   "-l", str(log), check=False)
                if result.returncode != 0:
                    tail = log.read_text(errors="replace").strip().splitlines()[-3:] if log.exists() else []
                    raise DatabaseUnavailable(
                        f"the embedded PostgreSQL in {self.data_dir} did not start: "
                        + (" | ".join(tail) or result.stderr.strip())
                    )
            self._ensure_database()
        return self.url()

    def stop(self) -> bool:
        """Stop the server; False when it was not running."""
        with self._lock():
            if not self.is_running():
                return False
            self._run("pg_ctl", "stop", "-m", "fast", "-w", "-D", str(self.data_dir))
            return True

    # -- internals -----------------------------------------------------------------------
    def _initdb(self) -> None:
        self._prepare_directory()
        self._run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "-E", "UTF8", "--locale=C",
                  "--auth=trust", "--no-instructions")
        settings = {
            "port": _free_port(),
            "listen_addresses": f"'{HOST}'",
            # TCP only: a socket directory path can exceed the kernel's 107-byte limit.
            "unix_socket_directories": "''",
            "max_connections": 50,
        }
        if self.throwaway:
            # Durability is worthless for a database deleted after the run; speed is not.
            settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
        with (self.data_dir / "postgresql.conf").open("a") as conf:
            conf.write("\n# Written by registry.embedded\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    def _prepare_directory(self) -> None:
        try:
            if self.data_dir.is_dir() and any(self.data_dir.iterdir()):
                raise self._unusable("it holds files but no PostgreSQL data (no PG_VERSION): empty it")
            self.data_dir.mkdir(parents=True, exist_ok=True)
            if self.user is not None:
                os.chown(self.data_dir, self.user.pw_uid, self.user.pw_gid)
            self.data_dir.chmod(0o700)
        except OSError as error:
            raise self._unusable(_os_reason(error)) from None
        if self.user is None:
            return
        # The server's user must be able to reach its directory through every parent.
        for parent in self.data_dir.parents:
            mode = parent.stat().st_mode
            if not mode & 0o001:
                raise ConfigurationError(
                    f"PostgreSQL runs as {self.user.pw_name!r} here (root is refused), and that user "
                    f"cannot enter {parent}: set REGISTRY_DATA_DIR to a directory outside it"
                )

    def _ensure_database(self) -> None:
        deadline = time.monotonic() + 10
        while True:
            try:
                with psycopg.connect(self.url("postgres"), autocommit=True, connect_timeout=5) as conn:
                    exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
                    if not exists:
                        conn.execute(f'CREATE DATABASE "{DATABASE}"')
                    return
            except psycopg.OperationalError as error:
                if time.monotonic() > deadline:
                    raise DatabaseUnavailable(f"the embedded PostgreSQL does not answer: {error}") from error
                time.sleep(0.2)

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        kwargs: dict = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C.UTF-8"
        result = subprocess.run([str(self.bin_dir / tool), *args], capture_output=True, text=True,
                                cwd="/", env=env, **kwargs)
        if check and result.returncode != 0:
            raise DatabaseUnavailable(f"{tool} failed: {first_line(result.stderr.strip() or result.stdout.strip())}")
        return result

    def _unusable(self, reason: str) -> ConfigurationError:
        """A data directory the server cannot live in, named as the user gave it."""
        env = os.environ.get(DATA_DIR_VARIABLE)
        named = f"{DATA_DIR_VARIABLE}={env}" if env and Path(env).absolute() == self.data_dir else str(self.data_dir)
        return ConfigurationError(
            f"{named} cannot hold the embedded PostgreSQL: {reason}. Set {DATA_DIR_VARIABLE} to a directory "
            f"you can write, or REGISTRY_DATABASE_URL to use your own server"
        )

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """Serialise start/stop between processes sharing this data directory."""
        lock_path = self.data_dir.parent / f".{self.data_dir.name}.lock"
        try:
            self.data_dir.parent.mkdir(parents=True, exist_ok=True)
            handle = open(lock_path, "w")
        except OSError as error:
            raise self._unusable(_os_reason(error)) from None
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _os_reason(error: OSError) -> str:
    where = f"{error.filename}: " if error.filename else ""
    return f"{where}{error.strerror or error}"


@contextlib.contextmanager
def throwaway_server() -> Iterator[EmbeddedServer]:
    """A server in a fresh temporary directory, removed on exit (tests, benchmarks)."""
    parent = Path(tempfile.mkdtemp(prefix="registry-pg-"))
    # mkdtemp makes the directory 0700; the server's user must be able to enter it.
    parent.chmod(0o755)
    server = EmbeddedServer(parent / "data", throwaway=True)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(parent, ignore_errors=True)
