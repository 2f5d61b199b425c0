"""A small read-through cache for services: resolved catalogs and framed prompts by scope,
invalidated by the registry's change notifications.

A change in tenant T drops T's entries only; a change of the official layer (tenant_id NULL)
or a reconnection of the watcher drops everything. Each cached prompt keeps its fingerprint:
when `prompt()` returns a different fingerprint than the one a service sent last, the
provider's prompt cache for that conversation will miss once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from registry.api import Registry
from registry.frame import FramedPrompt, frame_system_prompt
from registry.models import CatalogEntry
from registry.watch import Change

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

    def _generation_of(self, tenant_id: int) -> tuple[int, int]:
        return self._generation, self._tenant_generation.get(tenant_id, 0)

    def _read_through(self, key: Key, load: Callable[[], T]) -> T:
        with self._lock:
            if key in self._entries:
                return self._entries[key]  # type: ignore[return-value]
            generation = self._generation_of(key[1])
            self.misses += 1
        value = load()  # outside the lock: a slow query must not block other scopes' hits
        with self._lock:
            if self._generation_of(key[1]) == generation:
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
        """Drop what a change may have made stale; returns how many entries went."""
        with self._lock:
            if change.reconnected or change.tenant_id is None:
                self._generation += 1
                dropped = len(self._entries)
                self._entries.clear()
                return dropped
            self._tenant_generation[change.tenant_id] = self._tenant_generation.get(change.tenant_id, 0) + 1
            stale = [k for k in self._entries if k[1] == change.tenant_id]
            for key in stale:
                del self._entries[key]
            return len(stale)

    def follow(self, changes: Iterable[Change]) -> threading.Thread:
        """Apply a stream of changes (registry.watch.watch_changes) in a daemon thread."""
        def run() -> None:
            for change in changes:
                self.invalidate(change)
        thread = threading.Thread(target=run, name="registry-cache-invalidation", daemon=True)
        thread.start()
        return thread
