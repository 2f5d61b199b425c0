"""Hostile-tenant round 14 (docs/security.md, "Round 14"): an outside tester holding acme's app role, who read only
the README and docs/. Tenant isolation held on every probe; what got through was availability (A11, A12), a traceback
for input that should be one line (A18) and the gate's recall on the tester's own 57 postures (34 refused on first
contact, tests/gate_corpus/h14_attacks.jsonl)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from registry.cli import options
from registry.errors import InvalidInput
from registry.gate import check

CORPUS = Path(__file__).parent / "gate_corpus"


@pytest.mark.parametrize("option", ["tool_profile", "requires"])
def test_json_nested_past_recursion_is_one_line(option: str) -> None:
    """A18: `--tool-profile` of 30,000 nested brackets was a RecursionError traceback; nothing was written, but the
    command should say what is wrong in one line, as it does for any other bad JSON."""
    args = argparse.Namespace(**{option: "[" * 30000 + "]" * 30000})
    with pytest.raises(InvalidInput, match="nests too deeply"):
        getattr(options, option)(args)


def test_the_testers_postures_keep_their_floor() -> None:
    """The tester's 57 postures (all attacks; none of the gate's authors had seen them): 34 refused on first contact
    with 0c26cfe, then read by idea. A floor, not a measure: they are fitted now."""
    rows = [json.loads(line) for line in (CORPUS / "h14_attacks.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 57
    refused = sum(not check(row["text"]).accepted for row in rows)
    assert refused >= 43, refused
