"""Hooks: a pure, functional registry (seed 000, "Hooks: registro funcional puro").

A `Hooks` is a value — phase → handlers in registration order — not a process or a global:
`register` returns a new value and leaves the old one as it was, so two callers never see each
other's handlers and a test builds exactly the registry it needs.

    hooks = Hooks().register("before_assembly", add_clock).register("before_assembly", refuse_on_friday)
    result = hooks.run("before_assembly", event)
    if result.halted:
        print(result.halted_by, result.reason)

A handler takes the event and returns None (go on with the event unchanged), a new event (the
next handler gets it), or `Halt(reason)` (stop: later handlers are not called). A handler that
raises surfaces as `HookFailed`, naming the phase and the handler.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from registry.errors import InvalidInput, RegistryError

# The seed's four phases, then this project's two around context assembly (registry.prompting).
PHASES: tuple[str, ...] = ("session_start", "session_end", "pre_tool_use", "post_tool_use",
                           "before_assembly", "after_assembly")

Handler = Callable[[Any], Any]


@dataclass(frozen=True)
class Halt:
    """Returned by a handler to stop the chain; `reason` is shown to whoever ran the phase."""

    reason: str


@dataclass(frozen=True)
class HookResult:
    """What running a phase gave: the event as the last handler left it, and who halted, why."""

    phase: str
    event: Any
    halted_by: str | None = None
    reason: str | None = None

    @property
    def halted(self) -> bool:
        return self.halted_by is not None


class HookFailed(RegistryError):
    """A handler raised: the message names the phase and the handler; the cause is chained."""

    def __init__(self, phase: str, handler: str, error: BaseException) -> None:
        super().__init__(f"hook {handler!r} of phase {phase!r} failed: {type(error).__name__}: {error}")
        self.phase, self.handler, self.error = phase, handler, error


@dataclass(frozen=True)
class RegisteredHandler:
    name: str
    handler: Handler


def _empty() -> Mapping[str, tuple[RegisteredHandler, ...]]:
    return MappingProxyType({phase: () for phase in PHASES})


@dataclass(frozen=True)
class Hooks:
    """Phase → handlers, in registration order. Immutable: register() returns a new Hooks."""

    _handlers: Mapping[str, tuple[RegisteredHandler, ...]] = field(default_factory=_empty)

    def register(self, phase: str, handler: Handler, *, name: str | None = None) -> Hooks:
        """A new Hooks with `handler` after the phase's others. `name` (default: the function's
        qualified name) is what a halt or a failure reports."""
        _check_phase(phase)
        if not callable(handler):
            raise InvalidInput(f"a hook handler must be callable, got {type(handler).__name__}")
        label = name or getattr(handler, "__qualname__", None) or repr(handler)
        handlers = dict(self._handlers)
        handlers[phase] = handlers[phase] + (RegisteredHandler(label, handler),)
        return Hooks(MappingProxyType(handlers))

    def handlers(self, phase: str) -> tuple[RegisteredHandler, ...]:
        _check_phase(phase)
        return self._handlers[phase]

    def run(self, phase: str, event: Any) -> HookResult:
        """Call the phase's handlers in order, each with the event the previous one left."""
        for registered in self.handlers(phase):
            try:
                outcome = registered.handler(event)
            except Exception as error:  # any handler's bug: surfaced with its name, never swallowed
                raise HookFailed(phase, registered.name, error) from error
            if isinstance(outcome, Halt):
                return HookResult(phase, event, registered.name, outcome.reason)
            if outcome is not None:
                event = outcome
        return HookResult(phase, event)

    def __bool__(self) -> bool:
        return any(self._handlers.values())


def _check_phase(phase: str) -> None:
    if phase not in PHASES:
        raise InvalidInput(f"no hook phase {phase!r}; the phases are: {', '.join(PHASES)}")
