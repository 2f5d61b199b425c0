"""Progress tracker: per-step retry counts and stuck-loop detection (seed 002, "Rastreador de
Progresso").

A coordinator running a multi-step task asks, after each failed attempt of a step, whether to try
again:

    tracker = ProgressTracker(StepIterationConfig())      # 2 failed attempts, 0.85, skip_step
    tracker.begin_step("extract_data")
    decision = tracker.record_and_check("extract_data", error_output)
    if isinstance(decision, Stop):
        ...  # decision.action: skip_step | abort_task | escalate; decision.reason says why

The seed's finer calls are here too: `record_attempt` (count, no comparison), `should_continue`
(the count alone), `attempt_count`, `reset_step`.

A step stops when its failed attempts reach `max_reattempts_per_step` ("parar após 2 tentativas
falhadas", as the seed's configuration says) or as soon as two consecutive error outputs are at
least `similarity_threshold` alike — the agent is stuck on the same error, however it is worded.

Similarity is the normalised Levenshtein similarity

    similarity(a, b) = 1 − levenshtein(a, b) / max(len(a), len(b)),  and 1.0 when both are empty,

counted in Unicode code points on the NFC form, computed by rapidfuzz (C, bit-parallel). A step
is stuck when similarity ≥ threshold (the seed: "erros 85%+ similares = travado"). The work is
capped: an output longer than `compared_characters` (4,096) is compared by its first and last
2,048 characters — where a traceback says what failed and where it ended — so two outputs of
100 KB cost about a millisecond instead of ~70 ms to seconds (benchmarks/harness.py prints it).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

from rapidfuzz.distance import Levenshtein

from registry.errors import InvalidInput

COMPARED_CHARACTERS = 4_096


class LimitAction(StrEnum):
    SKIP_STEP = "skip_step"
    ABORT_TASK = "abort_task"
    ESCALATE = "escalate"


@dataclass(frozen=True)
class StepIterationConfig:
    max_reattempts_per_step: int = 2
    similarity_threshold: float = 0.85
    on_limit_reached: LimitAction = LimitAction.SKIP_STEP
    compared_characters: int = COMPARED_CHARACTERS

    def __post_init__(self) -> None:
        count = self.max_reattempts_per_step
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidInput(f"max_reattempts_per_step must be a whole number ≥ 1, got {count!r}")
        threshold = self.similarity_threshold
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
            raise InvalidInput(f"similarity_threshold must be a number from 0 to 1, got {threshold!r}")
        try:
            object.__setattr__(self, "on_limit_reached", LimitAction(self.on_limit_reached))
        except ValueError:
            raise InvalidInput(f"on_limit_reached must be one of {', '.join(LimitAction)}, "
                               f"got {self.on_limit_reached!r}") from None
        if isinstance(self.compared_characters, bool) or not isinstance(self.compared_characters, int) \
                or self.compared_characters < 2:
            raise InvalidInput(f"compared_characters must be a whole number ≥ 2, got {self.compared_characters!r}")


@dataclass(frozen=True)
class Continue:
    """Try the step again."""

    attempts: int
    similarity: float | None = None


@dataclass(frozen=True)
class Stop:
    """Stop retrying: `action` is the configured on_limit_reached, `reason` says why."""

    reason: str
    action: LimitAction
    attempts: int
    similarity: float | None = None


StepDecision = Continue | Stop


def _compared(text: str, cap: int) -> str:
    text = unicodedata.normalize("NFC", text)
    if len(text) <= cap:
        return text
    half = cap // 2
    return text[:half] + text[-(cap - half):]


def similarity(a: str, b: str, *, compared_characters: int = COMPARED_CHARACTERS) -> float:
    """1 − levenshtein(a, b) / max(len(a), len(b)); 1.0 for two empty texts. Texts longer than
    `compared_characters` are compared by their first and last halves of that many characters."""
    return Levenshtein.normalized_similarity(_compared(a, compared_characters), _compared(b, compared_characters))


@dataclass
class _StepState:
    attempts: int = 0
    last_error: str | None = None


@dataclass
class ProgressTracker:
    """Per-step state of one task. Not shared between tasks: make one per task."""

    config: StepIterationConfig = field(default_factory=StepIterationConfig)
    _steps: dict[str, _StepState] = field(default_factory=dict)

    def begin_step(self, name: str) -> None:
        """Start (or restart) tracking a step: its count and last error are forgotten."""
        self._steps[_step_name(name)] = _StepState()

    def attempts(self, name: str) -> int:
        state = self._steps.get(_step_name(name))
        return state.attempts if state else 0

    attempt_count = attempts  # the seed's name

    def reset_step(self, name: str) -> None:
        """Forget a step entirely (begin_step starts it afresh)."""
        self._steps.pop(_step_name(name), None)

    def record_attempt(self, name: str, error: str) -> None:
        """Record a failed attempt without deciding (should_continue decides on the count alone)."""
        if not isinstance(error, str):
            raise InvalidInput(f"the error output must be text, got {type(error).__name__}")
        state = self._steps.setdefault(_step_name(name), _StepState())
        state.attempts += 1
        state.last_error = error

    def should_continue(self, name: str) -> StepDecision:
        """The retry limit alone: Stop once the step's failed attempts reach the maximum."""
        attempts = self.attempts(name)
        if attempts >= self.config.max_reattempts_per_step:
            return Stop(f"step {name!r} failed {attempts} times "
                        f"(max_reattempts_per_step {self.config.max_reattempts_per_step})",
                        self.config.on_limit_reached, attempts)
        return Continue(attempts)

    def limit_action(self) -> LimitAction:
        return self.config.on_limit_reached

    def record_and_check(self, name: str, error: str) -> StepDecision:
        """Record one failed attempt of `name` with its error output, and say whether to retry."""
        # A step recorded without begin_step starts counting here, as if begun.
        previous = self._steps.get(_step_name(name), _StepState()).last_error
        self.record_attempt(name, error)
        alike = None
        if previous is not None:
            alike = similarity(previous, error, compared_characters=self.config.compared_characters)
            if alike >= self.config.similarity_threshold:
                return Stop(f"stuck: step {name!r} failed twice in a row with errors {alike:.0%} alike "
                            f"(threshold {self.config.similarity_threshold:.0%})", self.config.on_limit_reached,
                            self.attempts(name), alike)
        decision = self.should_continue(name)
        return dataclasses.replace(decision, similarity=alike)


def _step_name(name: str) -> str:
    if not isinstance(name, str) or not name:
        raise InvalidInput(f"a step's name is a non-empty text, got {name!r}")
    return name
