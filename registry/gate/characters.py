"""Character checks (controls, invisible characters) and frame markers, and how excerpts are
printed so that a refusal shows what is really there."""

import re
import unicodedata

from registry.gate.errors import InstructionsRejected
from registry.gate_normalize import Folded, fold_characters

_EXCERPT_LIMIT = 80
_CONTEXT_CHARS = 15

# --------------------------------------------------------------------------------------------
# Characters
# --------------------------------------------------------------------------------------------

_ALLOWED_CONTROLS = frozenset("\n\t")
_ZWJ = "\u200d"
_EMOJI_PRESENTATION_SELECTORS = frozenset("\ufe0e\ufe0f")
_KEYCAP_BASES = frozenset("0123456789#*")
# Blocks where emoji live (a superset of Unicode's Extended_Pictographic, kept coarse on purpose:
# a presentation selector or joiner after any of these is visible-symbol use, not a hiding place).
_EMOJI_RANGES: tuple[tuple[int, int], ...] = (
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x21AA), (0x231A, 0x23FF), (0x24C2, 0x24C2), (0x25AA, 0x25FE),
    (0x2600, 0x27BF), (0x2934, 0x2935), (0x2B05, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D),
    (0x3297, 0x3299), (0x1F000, 0x1FAFF), (0x1FC00, 0x1FFFD),
)
# Letters and marks that render as nothing although Unicode does not class them as formatting.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u2800")
# England, Scotland and Wales: the only standard emoji built from tag characters.
_SUBDIVISION_FLAG = re.compile(
    "\U0001F3F4(?:\U000E0067\U000E0062(?:\U000E0065\U000E006E\U000E0067|\U000E0073\U000E0063\U000E0074"
    "|\U000E0077\U000E006C\U000E0073))\U000E007F"
)


def _is_emoji(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _EMOJI_RANGES)


def _is_variation_selector(code: int) -> bool:
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F


def _is_invisible(text: str, index: int, flag_positions: set[int]) -> bool:
    char = text[index]
    code = ord(char)
    previous = text[index - 1] if index > 0 else ""
    following = text[index + 1] if index + 1 < len(text) else ""
    if index in flag_positions:
        return False
    if char in _EMOJI_PRESENTATION_SELECTORS:
        return not (previous and (_is_emoji(previous) or previous in _KEYCAP_BASES))
    if char == _ZWJ:
        # Joins emoji into one picture (👨‍👩‍👧, ❤️‍🔥); anywhere else it only hides things.
        joined_from = text[index - 2] if previous == "\ufe0f" and index > 1 else previous
        return not (joined_from and following and _is_emoji(joined_from) and _is_emoji(following))
    if _is_variation_selector(code) or char in _BLANK_LOOKING:
        return True
    category = unicodedata.category(char)
    if category in ("Cf", "Co"):
        return True
    # Unassigned code points have no agreed rendering; newer emoji than this Python knows are spared.
    return category == "Cn" and not _is_emoji(char)


def _is_control(char: str) -> bool:
    category = unicodedata.category(char)
    return (category == "Cc" and char not in _ALLOWED_CONTROLS) or category in ("Cs", "Zl", "Zp")


def _is_plain(code: int) -> bool:
    """Neither a control nor invisible, whatever its neighbours (joiners and selectors excepted)."""
    char = chr(code)
    if char in _ALLOWED_CONTROLS:
        return True
    if char == _ZWJ or char in _EMOJI_PRESENTATION_SELECTORS or char in _BLANK_LOOKING:
        return False
    if _is_variation_selector(code) or _is_emoji(char):  # emoji are neighbours of selectors: look closer
        return False
    return unicodedata.category(char) not in ("Cc", "Cs", "Zl", "Zp", "Cf", "Co", "Cn")


def _class_of(codes: list[int]) -> str:
    ranges: list[str] = []
    start = previous = codes[0]
    for code in codes[1:] + [-1]:
        if code != previous + 1:
            ranges.append(re.escape(chr(start)) + ("-" + re.escape(chr(previous)) if previous > start else ""))
            start = code
        previous = code
    return "".join(ranges)


# Nearly every character of a real text is plain; one C-speed scan finds the few that are not, and
# only those get the per-character analysis. Built from the same predicates as the analysis over
# the Basic Multilingual Plane (everything beyond it is always looked at closely).
_NOT_PLAIN = re.compile(f"[^{_class_of([code for code in range(0x10000) if _is_plain(code)])}]")


def _check_characters(text: str) -> None:
    suspects = [match.start() for match in _NOT_PLAIN.finditer(text)]
    if not suspects:
        return
    for index in suspects:
        if _is_control(text[index]):
            raise InstructionsRejected("control_characters", _context(text, index, index + 1), index, "")
    flag_positions = {
        position for match in _SUBDIVISION_FLAG.finditer(text) for position in range(match.start(), match.end())
    }
    for index in suspects:
        if _is_invisible(text, index, flag_positions):
            end = index + 1
            while end < len(text) and _is_invisible(text, end, flag_positions):
                end += 1
            raise InstructionsRejected("invisible_characters", _context(text, index, end), index, "")


# --------------------------------------------------------------------------------------------
# Frame markers and chat-template tokens
# --------------------------------------------------------------------------------------------

_TEMPLATE_ROLES = (
    r"system|sys|system[_-]?(?:prompt|message|instructions?|reminder)|im_start|im_end|im_sep"
    r"|start_of_turn|end_of_turn|bos|eos|user|assistant|human"
)
# Searched in the folded text with whitespace runs as one space, so spacing does not hide them.
_TEMPLATE_TOKEN = re.compile(
    "|".join(
        (
            r"< ?\| ?[^|<>\n]{1,60}? ?\| ?>",  # <|im_start|>, <|endoftext|>, <|system|>, <|eot_id|> …
            r"\[ ?/? ?(?:inst|sys|system|system_prompt|available_tools|tool_calls|tool_results) ?\]",
            # The pre-hydrated layer's own marker (registry/assembly.py): text that writes it forges
            # the layer that quotes files, wherever it stands.
            r"\[ ?/? ?pre[ _-]?hydrated[ _-]?context ?\]",  # and a closing one, which no layer has
            r"< ?< ?/? ?sys ?> ?>",  # Llama 2 <<SYS>>
            rf"< ?/? ?(?:{_TEMPLATE_ROLES})(?: [^<>\n]{{0,80}})? ?>",  # <system>, </system>, <start_of_turn>
            r"#{2,} ?(?:system|instruction|response|human|assistant|user|input) ?:",  # Alpaca/Vicuna
            r"< ?/ ?s ?>|<s>",  # Llama's </s><s> turn boundary
            r"(?:^|\n) ?(?:human|assistant) ?:",  # a chat turn written as a line of its own
            # The assembled prompt's own section titles (registry/assembly.py, seeds/product_rules.md)
            # as a heading or a line of their own: a posture that writes one starts a fake section.
            r"(?:^|\n) ?#* ?(?:regras do produto|product rules|reglas del producto|task state|instruction files"
            r"|project context|pre-hydrated context|system prompt|prompt do sistema|prompt del sistema) ?(?:\(|:|\n|$)",
            # The frame's and the layers' own opening sentences (registry/frame.py PREAMBLE,
            # registry/assembly.py): re-typed, they forge a frame — another slug, the official
            # layer, "written by the product team" (hostile-tenant round 4, #24–#26). The titles
            # "Business rules" and "Conventions" are not refused as headings: real postures have
            # sections of those names (the benign corpus does); the prompt's own layers are told
            # apart by the preamble under their heading, which is.
            r"the text between these markers|guidance set for this project|material gathered for this task",
        )
    )
)
# Searched with all whitespace removed, so "< < < agent _ posture" is caught too. It matches
# both FRAME_MARKERS (tests/test_gate.py checks that) and variants of their brackets.
_FRAME_MARKER = re.compile(r"(?:[<>«»‹›]{2,}|[«»‹›])[/\\]?(?:end[_\-.]*)?agent[_\-.]*posture|agent_+posture")


_LEET = str.maketrans("0134579@$", "oieastgas")


def _check_markers(text: str) -> None:
    folded = fold_characters(text)
    match = _TEMPLATE_TOKEN.search(folded.text)
    if match:
        _refuse_marker(text, folded, match)
    # The characters of `_without_spaces(folded)` (str.split splits where str.isspace holds); its
    # origins are only needed to quote a match, so they are only built then.
    # Digits read as letters too: ">>>END_AGENT_P0STURE" is the marker to a model.
    match = _FRAME_MARKER.search("".join(folded.text.split()).translate(_LEET))
    if match:
        _refuse_marker(text, _without_spaces(folded), match)


def _refuse_marker(text: str, form: Folded, match: re.Match[str]) -> None:
    start, end = form.source_span(match.start(), match.end())
    raise InstructionsRejected("frame_marker", _excerpt(text, start, end), start, "")


def _without_spaces(folded: Folded) -> Folded:
    kept = [(c, o) for c, o in zip(folded.text, folded.origins) if not c.isspace()]
    return Folded("".join(c for c, _ in kept), tuple(o for _, o in kept))



# --------------------------------------------------------------------------------------------
# Excerpts
# --------------------------------------------------------------------------------------------

def _printable(text: str) -> str:
    """Invisible and control characters spelled out, so an excerpt shows what is really there."""
    shown: list[str] = []
    for char in text:
        if char == "\n":
            shown.append("\\n")
        elif char == "\t":
            shown.append("\\t")
        elif unicodedata.category(char)[0] in "CZ" and char != " " or _is_variation_selector(ord(char)) \
                or char in _BLANK_LOOKING:
            shown.append(f"<U+{ord(char):04X}>")
        else:
            shown.append(char)
    return "".join(shown)


def _excerpt(text: str, start: int, end: int) -> str:
    piece = _printable(text[start:end])
    if len(piece) > _EXCERPT_LIMIT:
        piece = piece[: _EXCERPT_LIMIT - 1] + "…"
    return piece


def _context(text: str, start: int, end: int) -> str:
    """The culprit with a little text either side; long invisible runs are counted, not listed."""
    run = text[start:end]
    culprit = _printable(run[:4]) + (f"<…{len(run) - 4} more>" if len(run) > 4 else "")
    before = _printable(text[max(0, start - _CONTEXT_CHARS):start])
    after = _printable(text[end:end + _CONTEXT_CHARS])
    return before + culprit + after