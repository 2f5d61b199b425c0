"""The progress tracker: normalised Levenshtein similarity at its boundary, retry limits, each limit
action, and the cap that keeps long outputs cheap. No database; speed is in benchmarks/harness.py."""

from __future__ import annotations

import pytest

from registry.errors import InvalidInput
from registry.harness.progress import (
    COMPARED_CHARACTERS,
    Continue,
    LimitAction,
    ProgressTracker,
    StepIterationConfig,
    Stop,
    similarity,
)


def pair(length: int, changed: int) -> tuple[str, str]:
    """Two texts of `length` characters, `changed` of them substituted: similarity 1 − changed/length."""
    return "e" * length, "e" * (length - changed) + "x" * changed


def test_similarity_is_one_minus_distance_over_the_longer_length():
    assert similarity(*pair(20, 3)) == 0.85
    assert similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)
    assert similarity("abc", "abcdef") == 0.5  # 3 insertions over max(3, 6)


def test_empty_texts():
    assert similarity("", "") == 1.0  # two empty outputs are the same output
    assert similarity("", "erro") == 0.0 and similarity("erro", "") == 0.0


def test_unicode_forms_compare_equal():
    assert similarity("ação falhou", "ac\u0327a\u0303o falhou") == 1.0


def tracker(**config) -> ProgressTracker:
    t = ProgressTracker(StepIterationConfig(**config))
    t.begin_step("extract")
    return t


@pytest.mark.parametrize("length, changed, stuck", [
    (20, 3, True),     # exactly 0.85: stuck (≥ threshold)
    (100, 15, True),   # exactly 0.85 again
    (100, 16, False),  # 0.84: just under
    (100, 14, True),   # 0.86: just over
    (1000, 151, False),
])
def test_stuck_at_and_around_the_threshold(length, changed, stuck):
    t = tracker(max_reattempts_per_step=5)
    first, second = pair(length, changed)
    assert isinstance(t.record_and_check("extract", first), Continue)
    decision = t.record_and_check("extract", second)
    assert isinstance(decision, Stop) is stuck
    if stuck:
        assert "stuck" in decision.reason and decision.similarity >= 0.85


def test_consecutive_only_the_previous_error_counts():
    t = tracker(max_reattempts_per_step=5)
    a, b = "TimeoutError: db " * 5, "PermissionError: file x " * 5
    assert isinstance(t.record_and_check("extract", a), Continue)
    assert isinstance(t.record_and_check("extract", b), Continue)
    assert isinstance(t.record_and_check("extract", a), Continue)  # like the one before last, not the last


@pytest.mark.parametrize("action", list(LimitAction))
def test_the_retry_limit_stops_with_the_configured_action(action):
    t = tracker(max_reattempts_per_step=2, on_limit_reached=action)
    first = t.record_and_check("extract", "erro de rede: conexão recusada")
    assert first == Continue(attempts=1)
    second = t.record_and_check("extract", "arquivo não encontrado: notas.csv, verifique o caminho")
    assert isinstance(second, Stop) and second.action is action and second.attempts == 2
    assert "failed 2 times" in second.reason and t.limit_action() is action


def test_three_different_failures_with_a_limit_of_three():
    t = tracker(max_reattempts_per_step=3)
    outputs = ["disk full on /var", "HTTP 502 from the billing API", "KeyError: 'cliente_id'"]
    decisions = [t.record_and_check("extract", o) for o in outputs]
    assert [type(d) for d in decisions] == [Continue, Continue, Stop] and t.attempts("extract") == 3


def test_begin_step_starts_over_and_steps_are_independent():
    t = tracker(max_reattempts_per_step=2)
    t.begin_step("load")
    assert isinstance(t.record_and_check("extract", "a" * 50), Continue)
    assert isinstance(t.record_and_check("load", "a" * 50), Continue)  # other step: no comparison across steps
    t.begin_step("extract")
    assert t.attempts("extract") == 0
    assert isinstance(t.record_and_check("extract", "a" * 50), Continue)


def test_long_outputs_are_compared_by_head_and_tail():
    head, tail = "Traceback (most recent call last):\n" + "x" * 3000, "y" * 3000 + "\nValueError: saldo negativo"
    middle_a, middle_b = "a" * 100_000, "b" * 100_000
    # Only the middles differ, and the middles are past the compared window: seen as the same.
    assert similarity(head + middle_a + tail, head + middle_b + tail) == 1.0
    assert COMPARED_CHARACTERS == 4096


@pytest.mark.parametrize("config, message", [
    ({"max_reattempts_per_step": 0}, "max_reattempts_per_step"),
    ({"similarity_threshold": 1.5}, "similarity_threshold"),
    ({"on_limit_reached": "retry_forever"}, "on_limit_reached must be one of skip_step, abort_task, escalate"),
])
def test_bad_configuration_is_refused(config, message):
    with pytest.raises(InvalidInput, match=message):
        StepIterationConfig(**config)


def test_the_action_may_be_given_by_name():
    assert StepIterationConfig(on_limit_reached="escalate").on_limit_reached is LimitAction.ESCALATE


def test_the_seeds_finer_calls_count_without_comparing():
    t = tracker(max_reattempts_per_step=2)
    t.record_attempt("extract", "erro A")
    assert isinstance(t.should_continue("extract"), Continue) and t.attempt_count("extract") == 1
    t.record_attempt("extract", "erro A")  # the same text, but record_attempt never compares
    assert isinstance(t.should_continue("extract"), Stop)
    t.reset_step("extract")
    assert t.attempt_count("extract") == 0 and isinstance(t.should_continue("extract"), Continue)


def test_a_non_text_error_is_refused():
    with pytest.raises(InvalidInput, match="must be text"):
        tracker().record_and_check("extract", None)
