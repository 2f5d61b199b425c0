"""Scale and speed: a deterministic data generator (generate) and the benchmark (run).

`registry bench generate` and `registry bench run` (registry/cli/bench.py) drive them;
docs/performance.md has the figures and what each index is for.
"""
