"""The instruction gate: what an agent's posture text may contain (docs/design.md, "The instruction gate").

`validate_instructions` is the only write path's check and is run again when a stored row is
framed. It returns the text to store — CRLF turned into LF, then NFC — or raises
`InstructionsRejected` naming a stable reason code, the family, the offending excerpt and what to
do. `check` returns the same judgement as a `Decision` without raising (`registry gate check`).

Checks, in order: empty, too_long, control_characters, invisible_characters, frame_marker,
revocation. Revocation is judged by *subject* (docs/gate.md, docs/adr/0010-gate-by-subject.md):
a posture says how to read and present data, and a sentence about the assistant's own rules,
whose data may be seen, what to hide from the person asking, whom to obey or which mode it is in
is refused. Three layers judge it, in order: the pattern rules fitted on corpus rounds 1-8
(legacy_rules, engine), the subject families (families/, subjects, lexicon/*.toml), and both again
on every decoded view of the text (decode).
"""

import unicodedata

from dataclasses import dataclass

from registry import limits
from registry.gate.characters import _EXCERPT_LIMIT, _check_characters, _check_markers, _context, _printable
from registry.gate.scripts import check_scripts
from registry.gate.characters import _excerpt
from registry.gate import signal
from registry.gate.decode import views
from registry.gate.engine import _check_revocation
from registry.gate.errors import InstructionsRejected, family_title
from registry.gate.families import FAMILIES
from registry.gate.subjects import Sentences, judge

MAX_INSTRUCTIONS_CHARS = limits.INSTRUCTIONS

# The registry's own frame (registry/frame.py) opens the agent's text with the first marker and
# closes it with the second. Agent text may never contain them, in any case or spacing.
FRAME_MARKERS: tuple[str, ...] = ("<<<AGENT_POSTURE", ">>>END_AGENT_POSTURE")

__all__ = ["FRAME_MARKERS", "MAX_INSTRUCTIONS_CHARS", "Decision", "InstructionsRejected", "check",
           "validate_field", "validate_instructions"]


def validate_instructions(text: str) -> str:
    return _validate_instructions(text, statistical=True)


def refused_by_rules(text: str) -> bool:
    """Whether the rules alone (no statistical signal) refuse `text` as instructions: what the
    training script measures the signal against."""
    try:
        _validate_instructions(text, statistical=False)
    except InstructionsRejected:
        return True
    return False


def _validate_instructions(text: str, statistical: bool) -> str:
    if not isinstance(text, str):
        raise TypeError(f"instructions must be str, not {type(text).__name__}")
    stored = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    if not stored.strip():
        raise InstructionsRejected("empty", "", 0, "")
    if len(stored) > MAX_INSTRUCTIONS_CHARS:
        overflow = stored[MAX_INSTRUCTIONS_CHARS:]
        raise InstructionsRejected(
            "too_long",
            _printable(overflow[:_EXCERPT_LIMIT // 2]) + ("…" if len(overflow) > _EXCERPT_LIMIT // 2 else ""),
            MAX_INSTRUCTIONS_CHARS,
            f" ({len(stored)} characters; the excerpt is what lies past the limit)",
        )
    _check_characters(stored)
    _check_markers(stored)
    check_scripts(stored)
    _check_meaning(stored, statistical)
    return stored


def _check_subjects(text: str) -> None:
    hit = judge(Sentences(text), FAMILIES)
    if hit:
        raise InstructionsRejected("revocation", _excerpt(text, hit.start, hit.end), hit.start, "", family=hit.family)


def _check_meaning(text: str, statistical: bool = True) -> None:
    """Revocation: the fitted rules, the subject families, both on every decoded view, then the
    statistical signal on the text and its views."""
    _check_revocation(text)
    _check_subjects(text)
    decoded = []
    for view in views(text):
        decoded.append(view)
        try:
            _check_markers(view.text)
            check_scripts(view.text)  # a payload decoding to a script the gate cannot read
            _check_revocation(view.text)
            _check_subjects(view.text)
        except InstructionsRejected as inner:
            decoded = inner.excerpt or _excerpt(view.text, 0, len(view.text))
            raise InstructionsRejected(
                "frame_marker" if inner.reason == "frame_marker" else "revocation",
                _excerpt(text, view.start, view.end), view.start,
                f" [{view.how} reads: \"{decoded}\"; {inner.family or inner.reason}]",
                family=inner.family if view.how in ("settings", "markup tags", "question and answer") else "encoded",
            ) from None
    if statistical:
        _check_statistical(text, decoded)


def _check_statistical(text: str, decoded: list) -> None:
    """The second signal, behind the rules: the best window of the text or of a decoded view, refused
    when its score passes the shipped model's threshold (registry/gate/signal.py)."""
    model = signal.model()
    best, where, windows = None, None, 0
    for view in (None, *decoded):
        verdict = model.best_window(text if view is None else view.text)
        if verdict is None:
            continue
        windows += verdict.windows  # the length band counts the windows of the text and its views
        if best is None or verdict.score > best.score:
            best, where = verdict, view
    if best is None or best.score <= model.threshold(windows):
        return
    score = f"score {best.score:.1f}, threshold {model.threshold(windows):.1f}"
    if where is None:
        raise InstructionsRejected("revocation", _excerpt(text, best.start, best.end), best.start,
                                   f" [statistical check: {score}]", family=signal.FAMILY)
    raise InstructionsRejected(
        "revocation", _excerpt(text, where.start, where.end), where.start,
        f" [statistical check in {where.how}, which reads: \"{_excerpt(where.text, best.start, best.end)}\"; {score}]",
        family=signal.FAMILY)


@dataclass(frozen=True)
class Decision:
    """The gate's judgement of a text, for `registry gate check` and reviewers."""

    accepted: bool
    reason: str | None = None  # a stable code (docs/gate.md), None when accepted
    family: str | None = None  # the subject family that refused, for revocations
    excerpt: str = ""
    offset: int = 0
    message: str = ""

    @property
    def family_title(self) -> str:
        return family_title(self.family) if self.family else ""


def check(text: str, field: str = "instructions", max_length: int | None = None) -> Decision:
    """The decision `validate_instructions` (or `validate_field` when `max_length` is given) makes,
    returned instead of raised."""
    try:
        if max_length is None:
            validate_instructions(text)
        else:
            validate_field(field, text, max_length)
    except InstructionsRejected as refused:
        return Decision(False, refused.reason, refused.family, refused.excerpt, refused.offset, str(refused))
    return Decision(True)


def validate_field(field: str, text: str, max_length: int) -> str:
    """A one-line customer field that can reach a prompt (an agent's name, description,
    when_to_use): the same character, marker and revocation checks as the instructions, no line
    break, at most `max_length` characters after NFC. Returns the NFC text; '' passes."""
    if not isinstance(text, str):
        raise TypeError(f"{field} must be str, not {type(text).__name__}")
    stored = unicodedata.normalize("NFC", text)
    if len(stored) > max_length:
        raise InstructionsRejected(
            "too_long", _printable(stored[max_length:max_length + 20]), max_length,
            f" ({len(stored)} characters, the limit is {max_length})", field)
    try:
        for index, char in enumerate(stored):
            if char in "\r\n\u2028\u2029\x0b\x0c\x85":
                raise InstructionsRejected("line_break", _context(stored, index, index + 1), index, "", field)
        _check_characters(stored)
        _check_markers(stored)
        check_scripts(stored)
        _check_meaning(stored)
    except InstructionsRejected as rejected:
        if rejected.field == field:
            raise
        raise InstructionsRejected(rejected.reason, rejected.excerpt, rejected.offset, rejected.detail,
                                   field, rejected.family) from None
    return stored

