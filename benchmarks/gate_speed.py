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


def main(runs: int) -> None:
    timings = []
    for run in range(runs):
        text = full_size_text(run)  # a new text each run: no cached folding helps
        start = time.perf_counter()
        validate_instructions(text)
        timings.append((time.perf_counter() - start) * 1000)
    print(f"gate on {MAX_INSTRUCTIONS_CHARS:,} characters, {runs} runs: "
          f"median {statistics.median(timings):.1f} ms, best {min(timings):.1f} ms, worst {max(timings):.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
