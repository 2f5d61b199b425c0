"""How long the instruction gate takes on a full-size text: prints figures, asserts nothing.

    .venv/bin/python benchmarks/gate_speed.py [RUNS]

Speed is a benchmark's business, not a test's: a loaded CI machine must not fail the suite.

Each text is measured twice: *cold*, with the gate's memory of judged sentences emptied first (a
posture nobody has seen), and *edited*, a new last line on a posture judged before (an update
through the API: the gate remembers sentences it found clean, registry/gate/engine.py and
subjects.py). Both include the statistical signal when its weights ship.
"""

from __future__ import annotations

import statistics
import sys
import time

from registry.agent_files import read_agent_dir
from registry.gate import MAX_INSTRUCTIONS_CHARS, validate_instructions
from registry.gate.engine import forget_clean_lines
from registry.gate.subjects import forget_judged_lines
from registry.gate_normalize import fold_characters, word_skeleton
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


def forget() -> None:
    forget_clean_lines()
    forget_judged_lines()
    word_skeleton.cache_clear()
    fold_characters.cache_clear()


def measure(label: str, make, runs: int) -> None:
    validate_instructions(make(-1))  # the lexicon, the rules' prefilters and the model load once, on first use
    for mode in ("cold", "edited"):
        timings = []
        for run in range(runs):
            text = make(run)  # a new text each run: no cached folding helps
            if mode == "cold":
                forget()
            start = time.perf_counter()
            validate_instructions(text)
            timings.append((time.perf_counter() - start) * 1000)
        print(f"gate on {label} ({len(make(0)):,} characters), {mode}, {runs} runs: median "
              f"{statistics.median(timings):.1f} ms, best {min(timings):.1f} ms, worst {max(timings):.1f} ms")


def main(runs: int) -> None:
    measure("a full-size text", full_size_text, runs)
    measure("a typical posture", typical_text, runs)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
