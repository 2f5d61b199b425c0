"""The restructured gate decides exactly as the single-module gate did (commit fa483fe).

tests/gate_corpus/golden-v1.jsonl holds, for every corpus text and every seed agent file, the
decision of the gate before it was split into a package: pass, or refuse with reason, excerpt,
offset and detail. Texts are keyed by the first 16 hex digits of their SHA-256.
"""

import hashlib
import json
from pathlib import Path

from registry.gate import InstructionsRejected, validate_instructions

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "gate_corpus"


def texts() -> list[str]:
    found = []
    for name in ("attacks", "benign"):
        for line in (CORPUS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["round"] <= 8:  # the rounds that existed when the golden file was written
                found.append(row["text"])
    # Agent files only: seeds/product_rules.md is the product's own text, never a posture (and
    # it now trips the check on the prompt's own section titles, on purpose).
    found += [path.read_text(encoding="utf-8") for path in sorted((REPO / "seeds").rglob("*.md"))
              if path.parent.name == "agents"]
    return found


def decision(text: str) -> dict:
    try:
        validate_instructions(text)
    except InstructionsRejected as refused:
        return {"decision": "refuse", "reason": refused.reason, "excerpt": refused.excerpt,
                "offset": refused.offset, "detail": refused.detail}
    return {"decision": "pass"}


def test_restructured_gate_decides_as_before() -> None:
    golden = {}
    for line in (CORPUS / "golden-v1.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        golden[row.pop("sha")] = row
    differences = []
    for text in texts():
        key = hashlib.sha256(text.encode()).hexdigest()[:16]
        if key in golden and decision(text) != golden[key]:
            differences.append((text[:80], golden[key], decision(text)))
    checked = sum(hashlib.sha256(t.encode()).hexdigest()[:16] in golden for t in texts())
    assert checked >= 1050
    assert not differences, differences[:5]
