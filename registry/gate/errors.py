"""The gate's refusal: a stable reason code, the offending excerpt and what to do."""

from registry import limits
from registry.errors import RegistryError

MAX_INSTRUCTIONS_CHARS = limits.INSTRUCTIONS


class InstructionsRejected(RegistryError, ValueError):
    """The posture text was refused; `reason` is a stable code, `excerpt` the printable culprit."""

    def __init__(self, reason: str, excerpt: str, offset: int, detail: str, field: str = "instructions",
                 family: str | None = None) -> None:
        self.reason = reason
        # The subject family that refused (docs/gate.md), for revocations; None for the other reasons.
        self.family = family
        self.excerpt = excerpt
        self.offset = offset
        self.field = field
        self.detail = detail
        what, advice = _REASON_TEXT[reason]
        if family:
            what = f"the text {family_title(family)} (family: {family})"
        if reason == "too_long" and field != "instructions":
            what, advice = "the text is too long", "Shorten it."
        location = f" at character {offset}" if excerpt else ""
        shown = f' Offending part{location}: "{excerpt}".' if excerpt else ""
        label = field.replace("_", " ").capitalize()
        what = what.replace("the text", f"the {field.replace('_', ' ')}") if field != "instructions" else what
        super().__init__(f"{label} refused ({reason}): {what}{detail}.{shown} {advice}")


def family_title(family: str) -> str:
    """The family in words a customer understands: "tries to switch off or replace the product's rules"."""
    from registry.gate.families import TITLES  # the families import the engine, which imports this module
    from registry.gate.signal import FAMILY, TITLE

    if family == FAMILY:
        return TITLE
    return TITLES.get(family, "tries to change what the assistant may answer")


_REASON_TEXT: dict[str, tuple[str, str]] = {
    "empty": ("the text is empty or only whitespace", "Write the posture the agent should take."),
    "too_long": (
        f"the text is longer than {MAX_INSTRUCTIONS_CHARS} characters after NFC normalisation",
        "Shorten it: the whole text is sent with every question the tenant asks.",
    ),
    "control_characters": (
        "the text contains a control character",
        "Remove it: only newline and tab are allowed (a CRLF line end is stored as LF).",
    ),
    "invisible_characters": (
        "the text contains an invisible or formatting character",
        "Remove it: invisible characters let a text say one thing to a reviewer and another to the model. "
        "Ordinary emoji are fine.",
    ),
    "frame_marker": (
        "the text imitates a prompt-frame marker or a chat-template token",
        "Remove it: the registry frames the agent's text itself.",
    ),
    "unreadable_script": (
        "the text holds words in a writing system the gate cannot read",
        "Write the posture in Portuguese, English or Spanish (Latin letters): the gate lets through only what it "
        "can read. A letter alone, such as Δ or µ, is fine.",
    ),
    "line_break": (
        "the text holds a line break",
        "Write it on one line: this field is shown inline, and a line break could start a fake section.",
    ),
    "revocation": (
        "the text tries to revoke, outrank or reveal the product's rules",
        "An agent governs how to analyse and present data, never what may be answered: rephrase or remove "
        "this part.",
    ),
}
