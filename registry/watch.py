"""Following the registry's change notifications (channel registry_changes, sent on commit by
triggers: sql/replaceable/notify_changes.sql).

`watch_changes` yields a Change per notification and survives a dropped connection: it
reconnects and yields a `reconnected` Change first, because notifications sent while it was
away are lost — a cache must then forget everything.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
from pydantic import BaseModel, ConfigDict

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

    @property
    def reconnected(self) -> bool:
        return self.operation == "reconnected"


RECONNECTED = Change(operation="reconnected")


def parse_notification(payload: str) -> Change:
    data: dict[str, Any] = json.loads(payload)
    return Change.model_validate(data)


def watch_changes(url: str, *, stop: threading.Event | None = None, poll_seconds: float = 1.0,
                  retry_seconds: float = 1.0, ready: threading.Event | None = None) -> Iterator[Change]:
    """Changes as they are committed, until `stop` is set. `ready` is set once listening."""
    stop = stop or threading.Event()
    first = True
    while not stop.is_set():
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                if ready is not None:
                    ready.set()
                if not first:
                    yield RECONNECTED
                first = False
                while not stop.is_set():
                    for notify in conn.notifies(timeout=poll_seconds):
                        yield parse_notification(notify.payload)
        except psycopg.OperationalError:
            if stop.is_set():
                return
            first = False
            time.sleep(retry_seconds)
