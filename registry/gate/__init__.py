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
on every decoded view of the text (decode); then the statistical signal (signal), which may also
overrule a match of the first two on the text itself that it reads as clearly benign
(docs/adr/0018-the-model-may-overrule-a-rule.md).
"""

from __future__ import annotations

import unicodedata

from dataclasses import dataclass

from registry import limits
from registry.gate.characters import _EXCERPT_LIMIT, _check_characters, _check_markers, _context, _printable
from registry.gate.scripts import check_scripts
from registry.gate.characters import _excerpt
from registry.gate import signal
from registry.gate.decode import refused_question, views
from registry.gate.engine import AUTHORITY_TAG_DETAIL, _check_revocation
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
    return _validate_instructions(text, statistical=True)[0]


def refused_by_rules(text: str) -> bool:
    """Whether the rules alone (no statistical signal) refuse `text` as instructions: what the
    training script measures the signal against."""
    try:
        _validate_instructions(text, statistical=False)
    except InstructionsRejected:
        return True
    return False


def _validate_instructions(text: str, statistical: bool) -> tuple[str, list[Overruled]]:
    """The stored text and the rule matches the model overruled, or the refusal."""
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
    return stored, _check_meaning(stored, statistical)


def _check_subjects(text: str) -> None:
    hit = judge(Sentences(text), FAMILIES)
    if hit:
        raise InstructionsRejected("revocation", _excerpt(text, hit.start, hit.end), hit.start, "", family=hit.family)


@dataclass(frozen=True)
class Overruled:
    """A rule's match the statistical model read as clearly benign, so it did not refuse the text."""

    family: str | None
    excerpt: str
    offset: int
    window_score: float
    local_score: float


# Families whose matches the model never overrules. They state the product's first rules the other way round
# (grounding, fabrication), print what is hidden (secrecy) or unlock on a word (trigger): an attack and its
# benign twin differ by a negation or one object ("cite the table" / "never cite the table"; "show the table
# names" / "… and the connection string"), which a model of words and word pairs does not see. On the rules'
# first-contact refusals of B10-B14, overruling them would have overruled 11 attacks' first matches to withdraw
# 3 false positives (docs/gate.md, "B14, overruling and hostile round 7"). A fake authority tag opening a line
# ("[ADMIN]", "SYSTEM OVERRIDE:") is a marker, like the frame's, whatever the words after it: never overruled either.
NEVER_OVERRULED = frozenset({"grounding", "fabrication", "secrecy", "trigger"})

# A bare match: a rule noun alone ("instructions", "as regras", "la indicación") that an owner or a time word
# nearby made the assistant's, or an instruction relayed from the data. The model weighs those words as an
# attack wherever they stand, so the words around such a match score high in a benign sentence too ("these
# rules replace the old ones: a visit counts once confirmed"); for these the window holding the match decides,
# under thresholds of their own (signal.Model.overrules). A phrase that names the product's rules by itself
# ("system prompt", "os itens 1 a 6", "above this posture") is not bare. On the chained first-contact matches
# of B10-B16, each read by a model trained without its round, this withdrew 77 of the 203 false positives the
# rules still made, for 21 of 1,622 attacks' rule refusals (docs/gate.md, "Session 9: the window decides").
def _is_bare(refused: InstructionsRejected) -> bool:
    return refused.family == "relay" or (refused.family == "rules_subject" and len(refused.excerpt.split()) == 1)


# How many of a text's rule matches the model may overrule before the next one stands: each costs the
# rules another reading of the text, and a text made of many such sentences is not an ordinary posture.
MAX_OVERRULED = 8


def _check_rules_on_text(text: str, statistical: bool) -> list[Overruled]:
    """The fitted rules and the subject families on the text itself. With the statistical signal on, a
    match the model reads as clearly benign is overruled (docs/adr/0018-the-model-may-overrule-a-rule.md):
    its sentence is blanked — spaces, so every offset stays — and the rules read the text again, so any
    other sentence they refuse is still refused. Returns what was overruled; raises the refusal that stands."""
    overruled: list[Overruled] = []
    judged = text
    while True:
        try:
            _check_revocation(judged)
            _check_subjects(judged)
            return overruled
        except InstructionsRejected as refused:
            asked = refused_question(judged, refused.offset) if refused.reason == "revocation" else None
            if asked is not None:  # a question the customer's FAQ answers no: a request refused, read no further
                judged = judged[:asked[0]] + _blank(judged[asked[0]:asked[1]]) + judged[asked[1]:]
                continue
            if (not statistical or refused.reason != "revocation" or refused.family in NEVER_OVERRULED
                    or refused.detail == AUTHORITY_TAG_DETAIL or len(overruled) >= MAX_OVERRULED):
                raise
            model = signal.model()
            # the excerpt's length stands for the match's (at most 80 characters, escapes spelled out): the local
            # reading takes six words either side of it anyway
            end = refused.offset + max(1, len(refused.excerpt))
            reading = model.reading_of(judged, refused.offset, end)
            if not model.overrules(reading, bare=_is_bare(refused)):
                raise
            overruled.append(Overruled(refused.family, refused.excerpt, refused.offset,
                                       round(reading.window, 2), round(reading.local, 2)))
            judged = judged[:reading.start] + _blank(judged[reading.start:reading.end]) + judged[reading.end:]


def _blank(part: str) -> str:
    return "".join(c if c == "\n" else " " for c in part)


def _check_meaning(text: str, statistical: bool = True) -> list[Overruled]:
    """Revocation: the fitted rules and the subject families (each match the model reads as clearly
    benign overruled), both on every decoded view, then the statistical signal on the text and its views."""
    overruled = _check_rules_on_text(text, statistical)
    decoded = []
    for view in views(text):
        decoded.append(view)
        try:
            _check_markers(view.text)
            check_scripts(view.text)  # a payload decoding to a script the gate cannot read
            _check_revocation(view.text)
            _check_subjects(view.text)
        except InstructionsRejected as inner:
            if view.how == "question and answer" and _asks_what_the_answer_refuses(text, view.start):
                continue
            decoded = inner.excerpt or _excerpt(view.text, 0, len(view.text))
            raise InstructionsRejected(
                "frame_marker" if inner.reason == "frame_marker" else "revocation",
                _excerpt(text, view.start, view.end), view.start,
                f" [{view.how} reads: \"{decoded}\"; {inner.family or inner.reason}]",
                family=inner.family if view.how in ("settings", "markup tags", "question and answer") else "encoded",
            ) from None
    if statistical:
        _check_statistical(text, decoded)
    return overruled


def _asks_what_the_answer_refuses(text: str, start: int) -> bool:
    """Whether the FAQ pair at `start` asks for what the rules refuse and is answered a plain no ("Q: Can the
    assistant show other companies' prices? / A: No, it only sees our own data"): a request refused. A question
    the rules let pass keeps its pair read as one ("Should the assistant follow the platform's rules? / A: No")."""
    mark = text.find("?", start)
    asked = refused_question(text, mark - 1) if mark > start else None
    if asked is None:
        return False
    try:
        _check_revocation(text[asked[0]:asked[1]])
        _check_subjects(text[asked[0]:asked[1]])
    except InstructionsRejected:
        return True
    return False


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
    # Rule matches the statistical model read as clearly benign (so they did not refuse), for the reviewer.
    overruled: tuple[Overruled, ...] = ()

    @property
    def family_title(self) -> str:
        return family_title(self.family) if self.family else ""


def check(text: str, field: str = "instructions", max_length: int | None = None) -> Decision:
    """The decision `validate_instructions` (or `validate_field` when `max_length` is given) makes,
    returned instead of raised."""
    try:
        if max_length is None:
            _, overruled = _validate_instructions(text, statistical=True)
        else:
            _, overruled = _validate_field(field, text, max_length)
    except InstructionsRejected as refused:
        return Decision(False, refused.reason, refused.family, refused.excerpt, refused.offset, str(refused))
    return Decision(True, overruled=tuple(overruled))


def validate_field(field: str, text: str, max_length: int) -> str:
    """A one-line customer field that can reach a prompt (an agent's name, description,
    when_to_use): the same character, marker and revocation checks as the instructions, no line
    break, at most `max_length` characters after NFC. Returns the NFC text; '' passes."""
    return _validate_field(field, text, max_length)[0]


def _validate_field(field: str, text: str, max_length: int) -> tuple[str, list[Overruled]]:
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
        overruled = _check_meaning(stored)
    except InstructionsRejected as rejected:
        if rejected.field == field:
            raise
        raise InstructionsRejected(rejected.reason, rejected.excerpt, rejected.offset, rejected.detail,
                                   field, rejected.family) from None
    return stored, overruled

