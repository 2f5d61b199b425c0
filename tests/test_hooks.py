"""Hooks: an immutable value, handlers in registration order, a halt that stops the chain and
says who and why, a handler's exception surfacing with its name. No database."""

from __future__ import annotations

import pytest

from registry.errors import InvalidInput
from registry.harness.hooks import PHASES, Halt, HookFailed, Hooks


def test_the_phases_are_the_seeds_and_the_assemblys():
    assert PHASES == ("session_start", "session_end", "pre_tool_use", "post_tool_use",
                      "before_assembly", "after_assembly")


def test_handlers_run_in_registration_order_each_with_the_event_the_previous_left():
    calls = []

    def first(event):
        calls.append(("first", event))
        return event + ["a"]

    def second(event):
        calls.append(("second", event))  # returns None: the event goes on unchanged

    def third(event):
        calls.append(("third", event))
        return event + ["c"]

    hooks = Hooks().register("pre_tool_use", first).register("pre_tool_use", second).register("pre_tool_use", third)
    result = hooks.run("pre_tool_use", [])
    assert [name for name, _ in calls] == ["first", "second", "third"]
    assert calls[1][1] == ["a"] and calls[2][1] == ["a"]
    assert result.event == ["a", "c"] and not result.halted and result.halted_by is None


def test_a_halt_in_the_middle_stops_the_chain_and_says_who_and_why():
    called = []
    hooks = (Hooks()
             .register("session_start", lambda e: called.append(1) or e + 1, name="count")
             .register("session_start", lambda e: Halt(f"quota reached at {e}"), name="quota")
             .register("session_start", lambda e: called.append(3), name="never"))
    result = hooks.run("session_start", 41)
    assert result.halted and result.halted_by == "quota" and result.reason == "quota reached at 42"
    assert result.event == 42 and called == [1]  # the third handler was not called


def test_registering_into_a_copy_leaves_the_value_unchanged():
    base = Hooks().register("post_tool_use", lambda e: e, name="keep")
    extended = base.register("post_tool_use", lambda e: Halt("no"), name="refuse")
    assert [h.name for h in base.handlers("post_tool_use")] == ["keep"]
    assert [h.name for h in extended.handlers("post_tool_use")] == ["keep", "refuse"]
    assert not base.run("post_tool_use", 1).halted and extended.run("post_tool_use", 1).halted
    assert not Hooks() and base
    with pytest.raises((AttributeError, TypeError)):
        base._handlers["post_tool_use"] = ()  # the mapping itself is read-only


def test_an_exception_in_a_handler_surfaces_with_the_handler_named():
    def broken_audit(event):
        raise KeyError("tenant")

    hooks = Hooks().register("after_assembly", lambda e: e, name="fine").register("after_assembly", broken_audit)
    with pytest.raises(HookFailed) as failure:
        hooks.run("after_assembly", {})
    assert failure.value.handler.endswith("broken_audit") and failure.value.phase == "after_assembly"
    assert "broken_audit" in str(failure.value) and "KeyError" in str(failure.value)
    assert isinstance(failure.value.__cause__, KeyError)


def test_an_unknown_phase_or_a_non_callable_is_refused():
    with pytest.raises(InvalidInput, match="no hook phase 'pre_tool'"):
        Hooks().register("pre_tool", lambda e: e)
    with pytest.raises(InvalidInput, match="callable"):
        Hooks().register("session_end", "not a function")
    with pytest.raises(InvalidInput):
        Hooks().run("nope", None)
