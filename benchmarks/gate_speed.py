"""How long the instruction gate takes on a full-size text: prints figures, asserts nothing.

    .venv/bin/python benchmarks/gate_speed.py [RUNS]

Speed is a benchmark's business, not a test's: a loaded CI machine must not fail the suite.
"""

from __future__ import annotations

import statistics
import sys
import time

from registry.agent_files import read_agent_dir
from registry.gate import MAX_INSTRUCTIONS_CHARS, validate_instructions
from registry.seeding import OFFICIAL_AGENTS_DIR


def full_size_text(salt: int) -> str:
    """Benign posture text (the official agents, repeated) cut to the cap, unique per run."""
    postures = "\n\n".join(a.instructions for a in read_agent_dir(OFFICIAL_AGENTS_DIR))
    tail = f"\n{salt:08d}"
    body = (postures * (MAX_INSTRUCTIONS_CHARS // len(postures) + 1))[: MAX_INSTRUCTIONS_CHARS - len(tail)]
    return body + tail


def typical_text(salt: int) -> str:
    """A typical posture: the longer official agent (about 1,400 characters), unique per run."""
    longest = max((a.instructions for a in read_agent_dir(OFFICIAL_AGENTS_DIR)), key=len)
    return longest + f"\n{salt:08d}"


def measure(label: str, make, runs: int) -> None:
    validate_instructions(make(-1))  # the lexicon and the rules' prefilters load once, on first use
    timings = []
    for run in range(runs):
        text = make(run)  # a new text each run: no cached folding helps
        start = time.perf_counter()
        validate_instructions(text)
        timings.append((time.perf_counter() - start) * 1000)
    print(f"gate on {label} ({len(make(0)):,} characters), {runs} runs: median {statistics.median(timings):.1f} ms, "
          f"best {min(timings):.1f} ms, worst {max(timings):.1f} ms")


def main(runs: int) -> None:
    measure("a full-size text", full_size_text, runs)
    measure("a typical posture", typical_text, runs)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
