"""The harness's costs, printed (never asserted): the progress tracker's similarity on long error
outputs (capped and uncapped), reference extraction, pre-hydration of workspace files with
pruning by the project's tokenizer, and conventions resolved for a deep directory.

    .venv/bin/python benchmarks/harness.py [RUNS]
"""

from __future__ import annotations

import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from registry.harness.prehydration import PreHydrationConfig, hydrate
from registry.harness.progress import similarity
from registry.harness.references import ReferencePattern, extract_references
from registry.harness.scoped_conventions import Convention, resolve_conventions
from registry.tokens import get_tokenizer


def timed(runs: int, action) -> float:
    """Median milliseconds of `runs` calls."""
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        samples.append((time.perf_counter() - began) * 1000)
    return statistics.median(samples)


def main(runs: int) -> None:
    rng = random.Random(1)
    tokenizer = get_tokenizer()
    tokenizer.count("warm up")
    a = "".join(rng.choices(string.ascii_letters + " \n", k=100_000))
    b = "".join(rng.choices(string.ascii_letters + " \n", k=100_000))
    print(f"runs: {runs} (median ms)")
    print(f"similarity, two 100 KB outputs, capped (4,096 chars):  {timed(runs, lambda: similarity(a, b)):8.2f} ms")
    print(f"similarity, two 100 KB outputs, uncapped:               "
          f"{timed(max(1, runs // 5), lambda: Levenshtein.normalized_similarity(a, b)):8.2f} ms")
    task = ("Corrija ./src/caixa_0.py e src/api/handlers_1.py, veja https://example.com/x?y=1, #42, PR #55, "
            "PROJ-123, C:\\Users\\ana\\a.xlsx. ") * 20
    jira = ReferencePattern("jira", r"[A-Z]+-\d+")
    print(f"extract references, {len(task):,}-character task:        "
          f"{timed(runs, lambda: extract_references(task, [jira])):8.2f} ms")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "src").mkdir()
        for index in range(10):
            (root / "src" / f"modulo_{index}.py").write_text("def saldo(conta):\n    return conta.total\n" * 400)
        ten = " ".join(f"./src/modulo_{index}.py" for index in range(10))
        config = PreHydrationConfig(max_context_tokens=4_000)
        result = hydrate(ten, config, workspace=root, tokenizer=tokenizer)
        print(f"pre-hydrate 10 files of 17 KB to 4,000 tokens:          "
              f"{timed(max(1, runs // 5), lambda: hydrate(ten, config, workspace=root, tokenizer=tokenizer)):8.2f} ms"
              f"  ({result.count('resolved')} whole, {result.count('pruned')} pruned, {result.tokens} tokens)")
    layers = ["official", "tenant", "project"]
    rows = [Convention(i, layers[i % 3], "/".join(f"d{j}" for j in range(i % 6)), None, f"Convenção número {i}.")
            for i in range(1, 1001)]
    print(f"conventions, 1,000 rows, directory 5 levels deep:       "
          f"{timed(runs, lambda: resolve_conventions(rows, 'd0/d1/d2/d3/d4', None, limit_tokens=1000, tokenizer=tokenizer)):8.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
