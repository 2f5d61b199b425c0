"""Following the registry's change notifications (channel registry_changes, sent on commit by
triggers: sql/replaceable/notify_changes.sql).

`watch_changes` yields a Change per notification and survives a dropped connection: it yields
a `disconnected` Change when the connection is lost, then reconnects and yields a `reconnected`
Change first, because notifications sent while it was away are lost — a cache must then forget
everything (registry.cache serves what it has, marked stale, in between).

It listens on the primary (REGISTRY_LISTEN_URL, else REGISTRY_DATABASE_URL: registry.db.listen_url):
a hot standby refuses LISTEN, and a pooler in transaction mode cannot keep one, so neither is
accepted. Each Change carries `lsn`, the primary's WAL position read right after the
notification arrived: at or past the commit that sent it, so a reader that passes it as
`min_lsn` (registry.replicas) never reads the state from before the change on a lagging replica —
for a login that may read WAL positions: after `registry harden` a tenant's own login may not,
and its Changes carry `lsn` None (a ScopeCache reading replicas wants a service login's watcher).

Notifications are hints, never trusted input: any login can `SELECT pg_notify('registry_changes',
…)` with any text. A payload that is not the registry's shape (not JSON, not an object, an
unknown table or operation, an id that is not a positive integer, a slug that is not one) is
ignored: `parse_notification` raises InvalidNotification, and `watch_changes` skips it, counts
it (`IgnoredNotifications`) and tells `on_ignored` — it never ends because of one. What a
well-shaped forgery can still do is cause an invalidation: a re-read, never wrong data
(docs/operations.md).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
from pydantic import BaseModel, ConfigDict

from registry import limits, queries
from registry.errors import ConfigurationError

CHANNEL = "registry_changes"


class Change(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    table: str | None = None
    operation: str
    tenant_id: int | None = None
    project_id: int | None = None
    slug: str | None = None
    agent_id: int | None = None
    version: int | None = None
    conversation_id: int | None = None
    # Set by watch_changes, never read from a payload: the primary's WAL position when the
    # notification was received (at or past the commit that sent it); None for a login that may
    # not read it.
    lsn: str | None = None

    @property
    def reconnected(self) -> bool:
        return self.operation == "reconnected"

    @property
    def disconnected(self) -> bool:
        return self.operation == "disconnected"


RECONNECTED = Change(operation="reconnected")
DISCONNECTED = Change(operation="disconnected")
# A dead server (or a cut network) must end the wait for notifications within seconds, not after
# the system's two-hour TCP keepalive: the cache's stale bound counts from that moment.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2,
              "connect_timeout": 5}


# The shape sql/replaceable/notify_changes.sql sends. Other keys are ignored (a newer trigger
# may add some); these must be there, with these types.
TABLES = frozenset({"agents", "agent_optouts", "agent_defaults", "conversations", "dataset_groups",
                    "glossary_terms"})
OPERATIONS = frozenset({"insert", "update", "delete"})
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_BIGINT_MAX = 2**63 - 1


class InvalidNotification(ValueError):
    """A payload on registry_changes that is not the registry's: to be ignored, never trusted."""


def _positive_id(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if type(value) is not int or not 0 < value <= _BIGINT_MAX:
        raise InvalidNotification(f"{key} is not a positive integer or null")
    return value


def parse_notification(payload: str) -> Change:
    """The Change a payload announces, or InvalidNotification saying why it is not one."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        raise InvalidNotification("not JSON") from None
    if not isinstance(data, dict):
        raise InvalidNotification(f"not a JSON object (a {type(data).__name__})")
    missing = [key for key in ("table", "operation", "tenant_id", "project_id") if key not in data]
    if missing:
        raise InvalidNotification(f"no {', '.join(missing)}")
    table, operation, slug = data["table"], data["operation"], data.get("slug")
    if not isinstance(table, str) or table not in TABLES:
        raise InvalidNotification("table is not one of " + ", ".join(sorted(TABLES)))
    if not isinstance(operation, str) or operation not in OPERATIONS:
        raise InvalidNotification("operation is not insert, update or delete")
    tenant_id, project_id = _positive_id(data, "tenant_id"), _positive_id(data, "project_id")
    if project_id is not None and tenant_id is None:
        raise InvalidNotification("a project_id without a tenant_id")
    if slug is not None and not (isinstance(slug, str) and len(slug) <= limits.SLUG and (slug == "" or _SLUG.fullmatch(slug))):
        raise InvalidNotification("slug is not a slug, '' or null")
    return Change(table=table, operation=operation, tenant_id=tenant_id, project_id=project_id, slug=slug,
                  agent_id=_positive_id(data, "agent_id"), version=_positive_id(data, "version"),
                  conversation_id=_positive_id(data, "conversation_id"))


def excerpt(payload: str, width: int = 80) -> str:
    """A payload as it may be printed: ASCII-escaped (no terminal escapes, no bidi), cut."""
    text = ascii(payload)
    return text if len(text) <= width else text[: width - 1] + "…"


class IgnoredNotifications:
    """How many payloads a watcher ignored, and the last one's reason (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.last_reason: str | None = None

    def add(self, payload: str, reason: str) -> None:
        with self._lock:
            self.count += 1
            self.last_reason = reason


OnIgnored = Callable[[str, str], None]


def watch_changes(url: str | None = None, *, stop: threading.Event | None = None, poll_seconds: float = 1.0,
                  retry_seconds: float = 1.0, ready: threading.Event | None = None,
                  ignored: IgnoredNotifications | None = None,
                  on_ignored: OnIgnored | None = None) -> Iterator[Change]:
    """Changes as they are committed, until `stop` is set. `ready` is set once listening.
    `url`: the primary (default: registry.db.listen_url()); a hot standby is refused with a
    ConfigurationError, since it can never deliver a notification.

    A payload that is not the registry's is skipped: counted in `ignored` and passed to
    `on_ignored(payload, reason)` (whose own errors are swallowed: a forged payload must not
    end the watch through a callback either)."""
    if url is None:
        from registry.db import listen_url
        url = listen_url()
    stop = stop or threading.Event()
    first = True
    connected = False
    while not stop.is_set():
        try:
            with psycopg.connect(url, autocommit=True, **KEEPALIVES) as conn:
                _refuse_standby(conn)
                # After `registry harden` a tenant's own login may not read WAL positions: its
                # changes then carry none (lsn None), and nothing else changes. Asked before the
                # LISTEN, which stays the session's last statement (pg_stat_activity.query).
                positioned = conn.execute(queries.may_read_position).fetchone()[0]
                conn.execute(f"LISTEN {CHANNEL}")
                connected = True
                if ready is not None:
                    ready.set()
                if not first:
                    yield RECONNECTED
                first = False
                while not stop.is_set():
                    # A batch at a time, so that the primary's position can be read between two
                    # (psycopg holds the connection while it waits for notifications).
                    payloads = [n.payload for n in conn.notifies(timeout=poll_seconds, stop_after=1)]
                    if not payloads:
                        continue
                    if positioned:
                        cursor = conn.execute(queries.listening_position)
                        cursor.nextset()
                        lsn = cursor.fetchone()[0]
                    else:
                        conn.execute(queries.listening)
                        lsn = None
                    for payload in payloads:
                        try:
                            change = parse_notification(payload)
                        except InvalidNotification as error:
                            _report_ignored(payload, str(error), ignored, on_ignored)
                            continue
                        yield change.model_copy(update={"lsn": lsn})
        except psycopg.OperationalError:
            if stop.is_set():
                return
            first = False
            if connected:
                connected = False
                yield DISCONNECTED
            time.sleep(retry_seconds)


def _refuse_standby(conn: psycopg.Connection) -> None:
    if conn.execute(queries.in_recovery).fetchone()[0]:
        raise ConfigurationError(
            "the watch URL names a hot standby, which cannot LISTEN (notifications are sent on the primary "
            "only): set REGISTRY_LISTEN_URL to the primary's URL, and REGISTRY_READ_URL to the standby's"
        )


def _report_ignored(payload: str, reason: str, ignored: IgnoredNotifications | None,
                    on_ignored: OnIgnored | None) -> None:
    if ignored is not None:
        ignored.add(payload, reason)
    if on_ignored is not None:
        try:
            on_ignored(payload, reason)
        except Exception:  # noqa: BLE001 - a reporting hook never ends the watch
            pass
