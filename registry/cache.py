"""A small read-through cache for services: resolved catalogs and framed prompts by scope,
invalidated by the registry's change notifications.

A change in tenant T drops T's entries only; a change of the official layer (tenant_id NULL)
or a reconnection of the watcher drops everything. Each cached prompt keeps its fingerprint:
when `prompt()` returns a different fingerprint than the one a service sent last, the
provider's prompt cache for that conversation will miss once.

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
from collections.abc import Callable, Iterable
from typing import TypeVar

from registry.api import Registry
from registry.frame import FramedPrompt, frame_system_prompt
from registry.models import CatalogEntry
from registry.watch import OPERATIONS, Change

log = logging.getLogger(__name__)

T = TypeVar("T")
Key = tuple[str, int, int | None, str | None]  # (kind, tenant_id, project_id, slug)


class ScopeCache:
    def __init__(self, registry: Registry, product_rules: str) -> None:
        self._registry = registry
        self._rules = product_rules
        self._entries: dict[Key, object] = {}
        self._lock = threading.Lock()
        # Bumped by each invalidation: a value loaded while its tenant was invalidated is
        # returned to its caller but not kept, so a stale read never outlives the change.
        self._generation = 0
        self._tenant_generation: dict[int, int] = {}
        self.misses = 0
        self.ignored = 0  # items of the followed stream that were not a well-formed Change
        # False once a followed stream has ended or failed: invalidations no longer arrive, so
        # nothing is served from (or kept in) the cache until follow() is called again.
        self._serving = True
        self.follower_error: BaseException | None = None
        self._follower: threading.Thread | None = None

    @property
    def serving(self) -> bool:
        """Whether cached entries are served (False after the followed stream ended or failed)."""
        return self._serving

    @property
    def following(self) -> bool:
        """Whether a follower thread is applying a stream of changes right now."""
        return self._follower is not None and self._follower.is_alive() and self._serving

    def _generation_of(self, tenant_id: int) -> tuple[int, int]:
        return self._generation, self._tenant_generation.get(tenant_id, 0)

    def _read_through(self, key: Key, load: Callable[[], T]) -> T:
        with self._lock:
            if self._serving and key in self._entries:
                return self._entries[key]  # type: ignore[return-value]
            generation = self._generation_of(key[1])
            self.misses += 1
        value = load()  # outside the lock: a slow query must not block other scopes' hits
        with self._lock:
            if self._serving and self._generation_of(key[1]) == generation:
                self._entries[key] = value
        return value

    def catalog(self, tenant_id: int, project_id: int | None = None) -> list[CatalogEntry]:
        return self._read_through(("catalog", tenant_id, project_id, None),
                                  lambda: self._registry.agents(tenant_id, project_id))

    def prompt(self, tenant_id: int, project_id: int | None, slug: str | None) -> FramedPrompt:
        """The framed system prompt for an agent slug in a scope (None: no agent)."""
        def load() -> FramedPrompt:
            agent = next((a for a in self.catalog(tenant_id, project_id) if a.slug == slug), None)
            return frame_system_prompt(self._rules, agent)
        return self._read_through(("prompt", tenant_id, project_id, slug), load)

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
            if change.reconnected or change.tenant_id is None:
                return self._drop_all()
            self._tenant_generation[change.tenant_id] = self._tenant_generation.get(change.tenant_id, 0) + 1
            stale = [k for k in self._entries if k[1] == change.tenant_id]
            for key in stale:
                del self._entries[key]
            return len(stale)

    def _drop_all(self) -> int:  # with the lock held
        self._generation += 1
        dropped = len(self._entries)
        self._entries.clear()
        return dropped

    def follow(self, changes: Iterable[Change]) -> threading.Thread:
        """Apply a stream of changes (registry.watch.watch_changes) in a daemon thread.

        Start it, and wait for the watcher's `ready`, before relying on the cache. When the
        stream ends or raises, the cache stops serving cached entries (see the module's doc).
        One follower at a time: following again while one runs is refused."""
        with self._lock:
            if self._follower is not None and self._follower.is_alive():
                raise RuntimeError("this cache already follows a stream of changes")
            self._drop_all()
            self._serving, self.follower_error = True, None

        def run() -> None:
            try:
                for change in changes:
                    try:
                        self.invalidate(change)
                    except Exception:  # noqa: BLE001 - over-invalidate rather than die
                        with self._lock:
                            self.ignored += 1
                            self._drop_all()
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
    if change.reconnected:
        return True
    tenant = change.tenant_id
    return change.operation in OPERATIONS and (tenant is None or (type(tenant) is int and tenant > 0))
