"""The gate's subject families, one module each (docs/gate.md, docs/adr/0010-gate-by-subject.md).

Each module has a docstring saying what the family is about, NAME, TITLE (the refusal message's
words for a customer), EXAMPLES it refuses, EXCUSES it lets through (tests/test_gate_families.py
runs both) and SHAPES over the lexicon's word classes.
"""

from registry.gate.families import (
    authority, concealment, data_scope, definition, exfiltration, fabrication, framing, mode, negated_rules, override, persona,
    grounding, priority, relaxation, relay, rules_subject, secrecy, trigger,
)
from registry.gate.families import legacy_map

FAMILIES = (override, authority, priority, secrecy, exfiltration, data_scope, concealment, relay, persona, mode,
            relaxation, trigger, negated_rules, framing, fabrication, grounding, definition, rules_subject)
BY_NAME = {family.NAME: family for family in FAMILIES}

ENCODED_TITLE = "hides an instruction in an encoding (base64, hex, ROT13, reversed or split text)"
TITLES = {family.NAME: family.TITLE for family in FAMILIES} | {
    "encoded": ENCODED_TITLE,
}
