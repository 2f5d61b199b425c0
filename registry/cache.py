"""A small read-through cache for services: resolved catalogs, framed prompts and conversations'
resolutions, invalidated by the registry's change notifications (ADR 0016).

A change in tenant T drops T's entries only; a change of the official layer (tenant_id NULL)
or a reconnection of the watcher drops everything. Each cached prompt keeps its fingerprint:
when `prompt()` returns a different fingerprint than the one a service sent last, the
provider's prompt cache for that conversation will miss once.

Replicas: each change carries the primary's WAL position (registry.watch); the cache passes
the latest one of the entry's tenant as `min_lsn` when it reads again, so an entry dropped by a
change is never re-read from a replica that has not replayed that change (registry.replicas).

The database unreachable: while the watcher is disconnected (a `disconnected` Change), the
cache keeps serving what it holds, marked stale (`stale`, `stale_seconds`), for at most
`max_stale_seconds` (DEFAULT_MAX_STALE_SECONDS unless given); past that it serves nothing
cached until the watcher is back. Nothing it dropped before is ever served again, and on
reconnection it drops everything, since notifications sent meanwhile are lost.

Notifications are hints (registry.watch): whatever the followed stream yields that is not a
well-formed Change is ignored and counted (`ignored`), and an error while applying one drops
every entry — a forged notification costs at most a re-read. The follower thread never dies on
bad input; if its stream ends or raises anyway, the cache stops serving cached entries: every
call reads the database (and nothing is kept) until `follow` is called again, because
invalidations would no longer arrive. `following` and `follower_error` say which state it is in.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from registry.api import Registry
from registry.frame import FramedPrompt, frame_system_prompt
from registry.models import CatalogEntry, ConversationAgent, EffectiveAgent
from registry.replicas import later_lsn
from registry.watch import OPERATIONS, TABLES, Change

log = logging.getLogger(__name__)

T = TypeVar("T")
Key = tuple[str, int, int | None, str | None]  # (kind, tenant_id, project_id, slug or conversation id)
ConversationResolution = tuple[ConversationAgent, EffectiveAgent | None]
OnApplied = Callable[[Change, int], None]

# How long entries are served, marked stale, while the watcher cannot reach the primary. A TTL
# cache serves for its whole TTL without knowing of any change (60 s in the peers' SDKs); this
# cache knows of every change up to the disconnection, so it serves for less, and says so.
DEFAULT_MAX_STALE_SECONDS = 30.0


class ScopeCache:
    def __init__(self, registry: Registry, product_rules: str, *,
                 max_stale_seconds: float = DEFAULT_MAX_STALE_SECONDS) -> None:
        self._registry = registry
        self._rules = product_rules
        self.max_stale_seconds = max_stale_seconds
        self._entries: dict[Key, object] = {}
        self._conversation_keys: dict[int, Key] = {}
        self._lock = threading.Lock()
        # Every invalidation bumps the counter and records it for its tenant (or for all): a
        # value loaded while its tenant was invalidated is returned to its caller but not kept,
        # so a stale read never outlives the change.
        self._counter = 0
        self._all_changed_at = 0
        self._tenant_changed_at: dict[int, int] = {}
        # The primary's WAL positions of the changes seen: a re-read must reflect them.
        self._all_lsn: str | None = None
        self._tenant_lsn: dict[int, str] = {}
        self._latest_lsn: str | None = None
        self.misses = 0
        self.ignored = 0  # items of the followed stream that were not a well-formed Change
        # False once a followed stream has ended or failed: invalidations no longer arrive, so
        # nothing is served from (or kept in) the cache until follow() is called again.
        self._serving = True
        self._disconnected_at: float | None = None
        self.follower_error: BaseException | None = None
        self._follower: threading.Thread | None = None

    @property
    def serving(self) -> bool:
        """Whether cached entries are served (False after the followed stream ended or failed,
        or after `max_stale_seconds` without the primary)."""
        with self._lock:
            return self._serving_now()

    @property
    def following(self) -> bool:
        """Whether a follower thread is applying a stream of changes right now."""
        return self._follower is not None and self._follower.is_alive() and self._serving

    @property
    def stale(self) -> bool:
        """True while the watcher is disconnected and entries are still served: they hold every
        change up to `stale_seconds` ago, and may miss what happened since."""
        with self._lock:
            return self._disconnected_at is not None and self._serving_now()

    @property
    def stale_seconds(self) -> float:
        """How long the watcher has been disconnected (0.0 when it is connected)."""
        at = self._disconnected_at
        return 0.0 if at is None else time.monotonic() - at

    def _serving_now(self) -> bool:  # with the lock held
        if not self._serving:
            return False
        if self._disconnected_at is not None and time.monotonic() - self._disconnected_at > self.max_stale_seconds:
            if self._entries:
                log.warning("registry cache: no word from the primary for %.0f s; serving nothing cached",
                            self.max_stale_seconds)
                self._drop_all()
            return False
        return True

    def _changed_since(self, counter: int, tenant_id: int | None) -> bool:  # with the lock held
        changed = self._all_changed_at if tenant_id is None else max(
            self._all_changed_at, self._tenant_changed_at.get(tenant_id, 0))
        return changed > counter

    def _keep(self, key: Key, value: object, counter: int) -> None:
        with self._lock:
            if self._serving_now() and not self._changed_since(counter, key[1]):
                self._entries[key] = value
                if key[0] == "conversation":
                    self._conversation_keys[int(key[3])] = key

    def catalog(self, tenant_id: int, project_id: int | None = None) -> list[CatalogEntry]:
        key = ("catalog", tenant_id, project_id, None)
        return self._cached(key, tenant_id, lambda lsn: self._registry.agents(tenant_id, project_id, min_lsn=lsn))

    def prompt(self, tenant_id: int, project_id: int | None, slug: str | None) -> FramedPrompt:
        """The framed system prompt for an agent slug in a scope (None: no agent)."""
        def load(_lsn: str | None) -> FramedPrompt:
            agent = next((a for a in self.catalog(tenant_id, project_id) if a.slug == slug), None)
            return frame_system_prompt(self._rules, agent)
        return self._cached(("prompt", tenant_id, project_id, slug), tenant_id, load)

    def conversation(self, conversation_id: int) -> ConversationResolution:
        """What a conversation runs with, and the agent itself (Registry.conversation_with_agent)."""
        with self._lock:
            key = self._conversation_keys.get(conversation_id)
            if key is not None and self._serving_now() and key in self._entries:
                return self._entries[key]  # type: ignore[return-value]
            counter = self._counter
            min_lsn = self._latest_lsn
            self.misses += 1
        value = self._registry.conversation_with_agent(conversation_id, min_lsn=min_lsn)
        resolved = value[0]
        self._keep(("conversation", resolved.tenant_id, resolved.project_id, str(conversation_id)), value, counter)
        return value

    def _cached(self, key: Key, tenant_id: int, load: Callable[[str | None], T]) -> T:
        with self._lock:
            if self._serving_now() and key in self._entries:
                return self._entries[key]  # type: ignore[return-value]
            counter = self._counter
            min_lsn = later_lsn(self._all_lsn, self._tenant_lsn.get(tenant_id))
            self.misses += 1
        value = load(min_lsn)  # outside the lock: a slow query must not block other scopes' hits
        self._keep(key, value, counter)
        return value

    def fingerprints(self) -> dict[Key, str]:
        with self._lock:
            return {k: v.fingerprint for k, v in self._entries.items() if isinstance(v, FramedPrompt)}

    def cached_scopes(self) -> set[tuple[int, int | None]]:
        with self._lock:
            return {(k[1], k[2]) for k in self._entries}

    def invalidate(self, change: Change) -> int:
        """Drop what a change may have made stale; returns how many entries went. Anything that
        is not a well-formed Change is ignored (counted in `ignored`) and drops nothing."""
        if not _well_formed(change):
            with self._lock:
                self.ignored += 1
            return 0
        with self._lock:
            if change.disconnected:
                if self._disconnected_at is None:
                    self._disconnected_at = time.monotonic()
                return 0
            if change.reconnected:
                self._disconnected_at = None
                return self._drop_all()
            self._counter += 1
            if change.lsn is not None:
                self._latest_lsn = later_lsn(self._latest_lsn, change.lsn)
            if change.tenant_id is None:
                if change.lsn is not None:
                    self._all_lsn = later_lsn(self._all_lsn, change.lsn)
                return self._drop_all()
            self._tenant_changed_at[change.tenant_id] = self._counter
            if change.lsn is not None:
                self._tenant_lsn[change.tenant_id] = later_lsn(self._tenant_lsn.get(change.tenant_id), change.lsn)
            stale = [k for k in self._entries if k[1] == change.tenant_id]
            for key in stale:
                del self._entries[key]
                if key[0] == "conversation":
                    self._conversation_keys.pop(int(key[3]), None)
            return len(stale)

    def _drop_all(self) -> int:  # with the lock held
        self._counter += 1
        self._all_changed_at = self._counter
        dropped = len(self._entries)
        self._entries.clear()
        self._conversation_keys.clear()
        return dropped

    def follow(self, changes: Iterable[Change], on_applied: OnApplied | None = None) -> threading.Thread:
        """Apply a stream of changes (registry.watch.watch_changes) in a daemon thread.

        Start it, and wait for the watcher's `ready`, before relying on the cache. When the
        stream ends or raises, the cache stops serving cached entries (see the module's doc).
        One follower at a time: following again while one runs is refused. `on_applied(change,
        dropped)` is called after each change is applied (the benchmark times invalidations)."""
        with self._lock:
            if self._follower is not None and self._follower.is_alive():
                raise RuntimeError("this cache already follows a stream of changes")
            self._drop_all()
            self._serving, self.follower_error, self._disconnected_at = True, None, None

        def run() -> None:
            try:
                for change in changes:
                    try:
                        dropped = self.invalidate(change)
                    except Exception:  # noqa: BLE001 - over-invalidate rather than die
                        with self._lock:
                            self.ignored += 1
                            self._drop_all()
                        continue
                    if on_applied is not None:
                        on_applied(change, dropped)
            except BaseException as error:  # noqa: BLE001 - recorded, and the cache fails closed
                self._stop_serving(error)
                log.error("registry cache: the change stream failed (%s); serving from the database only",
                          error)
                return
            self._stop_serving(None)
            log.warning("registry cache: the change stream ended; serving from the database only")

        thread = threading.Thread(target=run, name="registry-cache-invalidation", daemon=True)
        self._follower = thread
        thread.start()
        return thread

    def _stop_serving(self, error: BaseException | None) -> None:
        with self._lock:
            self._serving = False
            self.follower_error = error
            self._drop_all()


def _well_formed(change: object) -> bool:
    if not isinstance(change, Change):
        return False
    if change.reconnected or change.disconnected:
        return True
    tenant = change.tenant_id
    return (change.operation in OPERATIONS and change.table in TABLES | {None}
            and (tenant is None or (type(tenant) is int and tenant > 0)))
