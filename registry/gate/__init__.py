"""The instruction gate: what an agent's posture text may contain (DESIGN.md §6).

`validate_instructions` is the only write path's check and is run again when a stored row is
framed. It returns the text to store — CRLF turned into LF, then NFC — or raises
`InstructionsRejected` naming a stable reason code, the offending excerpt and what to do.

Checks, in order: empty, too_long, control_characters, invisible_characters, frame_marker,
revocation. The revocation detector reads a folded "skeleton" of the text (registry.gate_normalize)
and looks for the *object* of a verb — the rules, the system prompt, the data requirement, the
product's precedence — never the verb alone, so "ignore spam messages" passes while "ignore the
previous instructions" does not. docs/gate.md explains the choices and the measured corpus figures.
"""

import unicodedata

from registry import limits
from registry.gate.characters import _EXCERPT_LIMIT, _check_characters, _check_markers, _context, _printable
from registry.gate.engine import _check_revocation
from registry.gate.errors import InstructionsRejected

MAX_INSTRUCTIONS_CHARS = limits.INSTRUCTIONS

# The registry's own frame (registry/frame.py) opens the agent's text with the first marker and
# closes it with the second. Agent text may never contain them, in any case or spacing.
FRAME_MARKERS: tuple[str, ...] = ("<<<AGENT_POSTURE", ">>>END_AGENT_POSTURE")

def validate_instructions(text: str) -> str:
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
    _check_revocation(stored)
    return stored


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
        _check_revocation(stored)
    except InstructionsRejected as rejected:
        if rejected.field == field:
            raise
        raise InstructionsRejected(rejected.reason, rejected.excerpt, rejected.offset, rejected.detail,
                                   field) from None
    return stored

