"""Reads on streaming replicas, with read-your-writes by WAL position (ADR 0015).

    replicas = Replicas.from_environment()            # REGISTRY_READ_URL, one pool a replica
    reg = Registry(write_pool, read=replicas)         # writes on the primary, reads on replicas
    agent = reg.update_agent(...)                     # reg.last_commit_lsn: where the commit ends
    reg.agents("acme")                                # served by a replica that has replayed it

A read that passes a WAL position (`min_lsn`) is served by a replica whose replay has reached
it, waiting up to `max_wait_seconds` for one, else by the primary (`connection` yields None).
A read without one goes to the next replica in turn and may be as far behind as replication
is. A replica that cannot be reached is passed over for that read, the same way.

Each replica's replayed position is remembered as it is read: replay only moves forward, so a
read whose position is at or below the remembered one needs no check (`known_positions`).
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import psycopg
from psycopg_pool import ConnectionPool

from registry import queries
from registry.errors import ConfigurationError, InvalidInput

Source = ConnectionPool | psycopg.Connection

# How long a read with a position waits for a replica to replay it before the primary serves it.
# Replay on a healthy standby trails the primary by milliseconds; 0.5 s covers a walwriter cycle
# (wal_writer_delay, 200 ms) with synchronous_commit = off twice over.
DEFAULT_MAX_WAIT_SECONDS = 0.5
POLL_SECONDS = 0.005


def lsn_value(lsn: str) -> int:
    """A WAL position as PostgreSQL prints it ('16/B374D848') as one comparable number."""
    try:
        high, low = lsn.split("/")
        return (int(high, 16) << 32) + int(low, 16)
    except (AttributeError, ValueError):
        raise InvalidInput(f"{lsn!r} is not a WAL position: give one as PostgreSQL prints it, e.g. '0/3000060' "
                           "(Registry.last_commit_lsn)") from None


def later_lsn(*positions: str | None) -> str | None:
    """The latest of some WAL positions (None where there is none)."""
    given = [p for p in positions if p is not None]
    return max(given, key=lsn_value) if given else None


@dataclass
class ReadCounts:
    """Where reads went: for tests, the benchmark and a service's metrics."""

    replica: int = 0           # served by a replica
    waited: int = 0            # ... of which after waiting for replay
    primary: int = 0           # the position was not replayed in time (or no replica answered)
    unreachable: int = 0       # a replica that could not be reached, passed over
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, name: str, by: int = 1) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + by)

    def passed_over(self) -> None:
        """A replica handed out failed before its read began: it counts as unreachable."""
        with self.lock:
            self.replica -= 1
            self.unreachable += 1


class Replicas:
    """Read-only copies of the primary, each a connection pool (or one connection)."""

    def __init__(self, sources: Sequence[Source], *, max_wait_seconds: float = DEFAULT_MAX_WAIT_SECONDS) -> None:
        if not sources:
            raise InvalidInput("Replicas needs at least one replica: a pool or a connection")
        if not 0 <= max_wait_seconds <= 60:
            raise InvalidInput(f"max_wait_seconds={max_wait_seconds!r}: give 0 to 60 seconds (how long a read "
                               "waits for a replica to replay a write before the primary serves it)")
        self.sources = list(sources)
        self.max_wait_seconds = max_wait_seconds
        self.counts = ReadCounts()
        self._known = [0] * len(self.sources)  # each replica's last replayed position seen
        self._turn = itertools.count()
        self._lock = threading.Lock()

    @classmethod
    def from_environment(cls, *, max_wait_seconds: float = DEFAULT_MAX_WAIT_SECONDS, **pool_kwargs) -> Replicas | None:
        """One RegistryPool per REGISTRY_READ_URL entry (None when unset), behind a pooler or not
        as REGISTRY_POOLER says."""
        from registry.db import RegistryPool, read_urls

        urls = read_urls()
        if not urls:
            return None
        return cls([RegistryPool(url, **pool_kwargs) for url in urls], max_wait_seconds=max_wait_seconds)

    def known_positions(self) -> list[int]:
        with self._lock:
            return list(self._known)

    def forget_positions(self) -> None:
        """Check every replica's replay again at its next positioned read (the benchmark's worst case)."""
        with self._lock:
            self._known = [0] * len(self.sources)

    def close(self) -> None:
        for source in self.sources:
            source.close()

    @contextlib.contextmanager
    def connection(self, min_lsn: str | None = None) -> Iterator[psycopg.Connection | None]:
        """A connection to a replica that has replayed `min_lsn` (any replica without one), or
        None: the caller reads on the primary instead."""
        wanted = None if min_lsn is None else lsn_value(min_lsn)
        deadline = time.monotonic() + self.max_wait_seconds
        waited = False
        while True:
            for index in self._order(wanted):
                with contextlib.ExitStack() as stack:
                    try:
                        conn = self._checkout(stack, index)
                        if conn.closed or conn.broken:
                            raise psycopg.OperationalError("the connection is closed")
                        if wanted is not None and self._known[index] < wanted:
                            self._remember(index, conn)
                    except psycopg.OperationalError:
                        self.counts.add("unreachable")
                        continue
                    if wanted is None or self._known[index] >= wanted:
                        self.counts.add("replica")
                        if waited:
                            self.counts.add("waited")
                        yield conn
                        return
            if wanted is None or time.monotonic() >= deadline:
                break
            waited = True
            time.sleep(POLL_SECONDS)
        self.counts.add("primary")
        yield None

    def _order(self, wanted: int | None) -> list[int]:
        """Replicas to try: round robin, the ones known to have replayed the position first."""
        start = next(self._turn) % len(self.sources)
        turn = [(start + i) % len(self.sources) for i in range(len(self.sources))]
        if wanted is None:
            return turn
        with self._lock:
            return sorted(turn, key=lambda i: self._known[i] < wanted)

    def _checkout(self, stack: contextlib.ExitStack, index: int) -> psycopg.Connection:
        source = self.sources[index]
        if isinstance(source, ConnectionPool):
            return stack.enter_context(source.connection())
        return source

    def _remember(self, index: int, conn: psycopg.Connection) -> None:
        # One round trip, outside any transaction: the read's own transaction starts after it.
        autocommit = conn.autocommit
        conn.autocommit = True
        try:
            row = conn.execute(queries.replayed_position).fetchone()
        except psycopg.errors.InsufficientPrivilege as error:
            raise ConfigurationError(
                f"the read URL's login ({conn.info.user}) may not read the replica's replayed position "
                "(registry harden revokes pg_last_wal_replay_lsn() and pg_current_wal_insert_lsn() from PUBLIC; "
                "registry_service and staff keep them): read replicas with a service login") from error
        finally:
            conn.autocommit = autocommit
        position = lsn_value(row[0]) if row[0] is not None else 0
        with self._lock:
            self._known[index] = max(self._known[index], position)
