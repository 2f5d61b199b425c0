"""`registry bench generate|run`: the data generator and the benchmark (docs/performance.md).

Without --url (and without REGISTRY_DATABASE_URL) both work on a throwaway PostgreSQL of their
own, never on the embedded demo database.
"""

from __future__ import annotations

import argparse
import sys

from registry import db
from registry.errors import InvalidInput

from .parsing import action, actions, command

SCALE_CHOICES = ["S", "M", "L"]


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _url(args: argparse.Namespace) -> str | None:
    url = args.url or db.configured_url()
    if url is not None:
        db.check_url(url)
    return url


def cmd_generate(args: argparse.Namespace) -> None:
    from registry import migrate
    from registry.bench.generate import SCALES, generate
    from registry.embedded import throwaway_server

    shape = SCALES[args.scale]
    url = _url(args)
    try:
        if url is not None:
            migrate.upgrade(url, "head")
            result = generate(url, shape, args.seed, progress=_say)
        else:
            _say("no --url and no REGISTRY_DATABASE_URL: generating into a throwaway server "
                 "(timing only; the data is removed at the end)")
            with throwaway_server() as server:
                target = server.url()
                migrate.upgrade(target, "head")
                result = generate(target, shape, args.seed, progress=_say)
    except ValueError as error:
        raise InvalidInput(str(error)) from error
    summary = result["summary"]
    print(f"scale {shape.name}, seed {args.seed}: generated in {result['seconds']:.1f} s — "
          f"{summary['tenants']:,} tenants, {summary['projects']:,} projects, {summary['agents_total']:,} agents "
          f"{summary['agents']}, {summary['optouts']:,} opt-outs, conversations {summary['conversations']}")


def cmd_run(args: argparse.Namespace) -> None:
    from registry.bench import run

    url = _url(args)
    scales = args.scale or ["S", "M"]
    try:
        report = run.benchmark(url, scales, args.clients, args.duration, args.rounds, args.seed, _say)
    except ValueError as error:
        raise InvalidInput(str(error)) from error
    m = report["machine"]
    print(f"Figures from: {m['setup']}")
    print(f"  {m.get('cpu', '?')}, {m['cpus']} CPUs, {m.get('memory_gb', '?')} GB; PostgreSQL {m['postgres']} "
          f"{m['settings']}; Python {m['python']}, psycopg {m['psycopg']}")
    print(f"  load average at start {report['load_average_start'][0]:.2f}, at end {report['load_average_end'][0]:.2f} "
          f"(other work on this machine makes figures noisy)")
    for scale, gen in report["generation"].items():
        print(f"  {scale} generated in {gen['seconds']:.1f} s")
    print()
    print(run.format_table(report))
    print(run.format_contract(report))
    print(f"(d) includes the instruction gate, {report['gate_ms_on_update_text']} ms per update on its own")
    print("Targets:")
    print(run.format_targets(report["targets"]))
    run.write_json(report, args.json)
    print(f"JSON written to {args.json}")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "bench", "generate realistic data at scale and benchmark resolution "
                          "(docs/performance.md)"))

    g = action(sub, "generate", cmd_generate, "fill an empty database with a deterministic data set (COPY)",
               description="Fill an empty, migrated database with a deterministic data set. Without --url or "
               "REGISTRY_DATABASE_URL, into a throwaway server (to time it).")
    g.add_argument("--scale", choices=SCALE_CHOICES, default="S", help="S, M (10×) or L (100×: 10,000 tenants, "
                   "~1,000,000 agents, 1,000,000 conversations)")
    g.add_argument("--seed", type=int, default=1, help="same seed, same rows (default 1)")
    g.add_argument("--url", help="postgresql:// URL of an empty database (default: REGISTRY_DATABASE_URL)")

    r = action(sub, "run", cmd_run, "benchmark resolution, catalogs, defaults and updates; print and write JSON",
               description="Benchmark (a) a conversation's agent, (b) a project's catalog, (c) the effective "
               "default, (d) a validated update, beside (e) a primary-key select and a Python-merge peer. "
               "Without --url: a throwaway server, one generated database per scale. With --url: that database "
               "(generated first if empty); (d) edits generated agents only.")
    r.add_argument("--scale", nargs="+", choices=SCALE_CHOICES, help="scales to run (default: S M)")
    r.add_argument("--clients", nargs="+", type=int, default=[1, 4], help="concurrent clients (default: 1 4)")
    r.add_argument("--duration", type=float, default=3.0, help="seconds per workload and client count (default 3)")
    r.add_argument("--rounds", type=int, default=3, help="interleaved slices per workload; ratios are their "
                   "median (default 3)")
    r.add_argument("--seed", type=int, default=1, help="data and input seed (default 1)")
    r.add_argument("--json", default="bench-results.json", help="where to write the results (default: "
                   "bench-results.json)")
    r.add_argument("--url", help="benchmark this database instead of a throwaway server")
