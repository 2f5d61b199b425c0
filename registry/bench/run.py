"""The benchmark: `registry bench run`. Prints a table and writes JSON; asserts nothing.

Workloads, each timed per call (one round trip unless said otherwise), random inputs:

    (a)  a_conversation   SELECT * FROM resolve_conversation_agent(id)        random conversation
    (a') a_peer           the same answer fetched in Python: the conversation, the layers'
                          defaults (if it follows the default), the slug's candidates in the
                          three layers, the opt-out, the scope's groups and terms when the
                          winner requires some — up to 5 round trips, merged in Python
    (b)  b_function       SELECT * FROM resolve_agents(tenant, project)        random project
         b_view           SELECT * FROM effective_agents WHERE project_id = p
         b_menu           the same function, menu columns only (no instructions, no requires)
    (b') b_peer           the catalog fetched in Python: official, tenant and project layers and
                          the project's opt-outs (4 round trips), merged per slug in Python
    (c)  c_default        SELECT * FROM resolve_default_agent(tenant, project)
    (d)  d_update         Registry.update_agent(id, AgentChanges(instructions=…), expected_version)
                          — gate, optimistic version, history trigger, one transaction
    (f)  f_explain        SELECT * FROM explain_agent(tenant, project, slug)  random project, official slug
         f_explain_view   SELECT * FROM agent_explanations WHERE project_id = p AND slug = s
    (e)  e_baseline       SELECT id, tenant_id, project_id, agent_slug FROM conversations WHERE id = $1
                          — the physical floor of one round trip, on the table (a) starts from

The statements are named in sql/queries/: bench.sql, and resolution.sql's for (a), (b) and (c),
which are the application's own.

Every client is a process with its own connection (autocommit; psycopg prepares a statement
after its 5th execution, for every workload alike), so the GIL limits neither the peer nor the
SQL. Each workload runs in `rounds` interleaved slices (e, a, a', b, …, then again), so a burst
of load from elsewhere hits all workloads alike; ratios are computed per round and the median
is reported. Latencies pool all slices.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import platform
import random
import statistics
import time
import unicodedata
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from registry import queries
from registry.agent_files import read_agent_dir
from registry.api import Registry
from registry.errors import StaleVersion
from registry.gate import validate_instructions
from registry.models import AgentChanges
from registry.seeding import OFFICIAL_AGENTS_DIR

WORKLOADS = ["e_baseline", "a_conversation", "a_peer", "b_function", "b_view", "b_peer", "b_menu", "c_default",
             "d_update", "f_explain", "f_explain_view"]
LABELS = {
    "e_baseline": "(e) pk select, baseline",
    "a_conversation": "(a) conversation agent, fn",
    "a_peer": "(a') conversation, Python merge",
    "b_function": "(b) catalog, fn",
    "b_view": "(b) catalog, view",
    "b_peer": "(b') catalog, Python merge",
    "b_menu": "(b) catalog, fn, menu columns",
    "c_default": "(c) effective default, fn",
    "d_update": "(d) validated update",
    "f_explain": "(f) explain one slug, fn",
    "f_explain_view": "(f) explain one slug, view",
}



def peer_conversation(conn: psycopg.Connection, conversation_id: int) -> tuple | None:
    row = conn.execute(queries.peer_conversation, (conversation_id,)).fetchone()
    if row is None:
        return None
    tenant_id, project_id, agent_slug = row
    scope_project = project_id or 0
    if agent_slug is None:
        mode = "default"
        layers = conn.execute(queries.peer_defaults, (tenant_id, scope_project)).fetchall()
        deciding = max(layers, key=lambda r: (r[1], r[0]), default=None)
        slug = deciding[2] if deciding else ""
    else:
        mode, slug = ("none" if agent_slug == "" else "pinned"), agent_slug
    slug = slug or None
    agent_id, missing = None, {"groups": [], "terms": []}
    if slug is not None:
        candidates = conn.execute(queries.peer_candidates, (slug, tenant_id, scope_project)).fetchall()
        if candidates:
            winner, _, _, requires = max(candidates, key=lambda r: (r[2], r[1]))
            if project_id is None or conn.execute(queries.peer_opted_out, (project_id, winner)).fetchone() is None:
                agent_id = winner
                missing = peer_missing(conn, tenant_id, scope_project, requires)
    unavailable = bool(missing["groups"] or missing["terms"])
    return (conversation_id, tenant_id, project_id, mode, slug, None if unavailable else agent_id,
            slug is not None and agent_id is None, unavailable, missing)


def peer_missing(conn: psycopg.Connection, tenant_id: int, scope_project: int, requires: dict) -> dict[str, list[str]]:
    """(a') Availability the peer's way: one more round trip when the winner requires something."""
    wanted = {"groups": requires.get("grupos", []) + requires.get("groups", []),
              "terms": requires.get("termos", []) + requires.get("terms", [])}
    if not (wanted["groups"] or wanted["terms"]):
        return {"groups": [], "terms": []}
    has = set(conn.execute(queries.peer_scope_names, {"tenant_id": tenant_id, "project_id": scope_project}).fetchall())
    key = lambda name: unicodedata.normalize("NFC", name.lower())  # noqa: E731 — as name_key
    return {kind: [n for n in names if (kind, key(n)) not in has] for kind, names in wanted.items()}


def peer_catalog(conn: psycopg.Connection, tenant_id: int, project_id: int) -> list[tuple]:
    winners: dict[str, tuple] = {}
    for layer in ((0, 0), (tenant_id, 0), (tenant_id, project_id)):  # least specific first
        for row in conn.execute(queries.peer_layer, layer).fetchall():
            winners[row[1]] = row
    hidden = {r[0] for r in conn.execute(queries.peer_optouts, (project_id,)).fetchall()}
    return sorted((r for r in winners.values() if r[0] not in hidden), key=lambda r: r[1])


def update_texts() -> list[str]:
    """What (d) writes: the official agents' own texts (~800 and ~1,400 characters)."""
    return [a.instructions for a in read_agent_dir(OFFICIAL_AGENTS_DIR)]


@dataclass
class Inputs:
    """What the clients draw from, loaded once before they fork."""

    conversations: array
    projects: array        # flat pairs: project_id, tenant_id
    update_targets: list[int]
    slugs: list[str]       # the official layer's, which (f) explains

    @classmethod
    def load(cls, url: str) -> Inputs:
        with psycopg.connect(url) as conn:
            conversations = array("q", (r[0] for r in conn.execute(queries.bench_conversations)))
            projects = array("q")
            for pid, tid in conn.execute(queries.bench_projects):
                projects.extend((pid, tid))
            targets = [r[0] for r in conn.execute(queries.bench_update_targets)]
            slugs = [r[0] for r in conn.execute(queries.bench_official_slugs)]
        return cls(conversations, projects, targets, slugs)


class _Client:
    """One benchmark client: a process, its connection, its random stream."""

    def __init__(self, url: str, inputs: Inputs, index: int, clients: int, seed: int) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.registry = Registry(self.conn, actor="bench")
        self.inputs, self.rng = inputs, random.Random(seed * 1000 + index)
        self.targets = inputs.update_targets[index::clients]
        self.versions: dict[int, int] = {}
        self.texts = update_texts()
        self.edits = 0
        self.ops: dict[str, Callable[[], int]] = {
            "e_baseline": lambda: self._fetch(queries.bench_baseline, (self._conversation(),)),
            "a_conversation": lambda: self._fetch(queries.resolve_conversation_agent, (self._conversation(),)),
            "a_peer": lambda: int(peer_conversation(self.conn, self._conversation()) is not None),
            "b_function": lambda: self._fetch(queries.resolve_agents, self._project()[::-1]),
            "b_view": lambda: self._fetch(queries.bench_catalog_view, (self._project()[0],)),
            "b_peer": lambda: len(peer_catalog(self.conn, *self._project()[::-1])),
            "b_menu": lambda: self._fetch(queries.bench_catalog_menu, self._project()[::-1]),
            "c_default": lambda: self._fetch(queries.resolve_default_agent, self._project()[::-1]),
            "d_update": self._update,
            "f_explain": lambda: self._fetch(queries.explain_agent, (*self._project()[::-1], self._slug())),
            "f_explain_view": lambda: self._fetch(queries.bench_explain_view, (self._project()[0], self._slug())),
        }

    def _fetch(self, query: str, params: tuple) -> int:
        return len(self.conn.execute(query, params).fetchall())

    def _conversation(self) -> int:
        ids = self.inputs.conversations
        return ids[self.rng.randrange(len(ids))]

    def _slug(self) -> str:
        return self.inputs.slugs[self.rng.randrange(len(self.inputs.slugs))] if self.inputs.slugs else "none"

    def _project(self) -> tuple[int, int]:
        i = self.rng.randrange(len(self.inputs.projects) // 2) * 2
        return self.inputs.projects[i], self.inputs.projects[i + 1]

    def _update(self) -> int:
        if not self.targets:
            return 0
        agent_id = self.targets[self.rng.randrange(len(self.targets))]
        if agent_id not in self.versions:
            self.versions[agent_id] = self.conn.execute(queries.agent_version, (agent_id,)).fetchone()[0]
        self.edits += 1
        text = f"{self.texts[self.edits % len(self.texts)]}\n\nRevisao {self.edits}."
        try:
            agent = self.registry.update_agent(agent_id, AgentChanges(instructions=text), self.versions[agent_id])
        except StaleVersion as stale:  # only if something else edits the same agent
            self.versions[agent_id] = stale.current_version
            return 0
        self.versions[agent_id] = agent.version
        return 1

    def serve(self, pipe) -> None:
        while (command := pipe.recv()) is not None:
            kind, name, *rest = command
            op = self.ops[name]
            if kind == "warm":
                for _ in range(8):  # past psycopg's prepare threshold of 5
                    op()
                pipe.send("ready")
                continue
            start_at, duration = rest
            while time.perf_counter() < start_at:
                time.sleep(0.0005)
            latencies, rows = array("d"), 0
            end = start_at + duration
            while (t0 := time.perf_counter()) < end:
                rows += op()
                latencies.append(time.perf_counter() - t0)
            pipe.send((latencies, time.perf_counter() - start_at, rows))
        self.conn.close()


def _client_main(url: str, inputs: Inputs, index: int, clients: int, seed: int, pipe) -> None:
    _Client(url, inputs, index, clients, seed).serve(pipe)


@dataclass
class Sample:
    latencies: list[float] = field(default_factory=list)
    ops: int = 0
    rows: int = 0
    seconds: float = 0.0
    round_throughput: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        lat = sorted(self.latencies)
        pick = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
        return {"p50_ms": round(pick(0.50), 3), "p99_ms": round(pick(0.99), 3),
                "ops_per_s": round(self.ops / self.seconds, 1) if self.seconds else 0.0,
                "ops": self.ops, "rows_per_op": round(self.rows / self.ops, 1) if self.ops else 0.0}


def measure(url: str, inputs: Inputs, clients: int, duration: float, rounds: int, seed: int,
            workloads: list[str] = WORKLOADS) -> dict[str, Sample]:
    ctx = mp.get_context("fork")
    pipes, procs = [], []
    for index in range(clients):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_client_main, args=(url, inputs, index, clients, seed, child), daemon=True)
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    samples = {name: Sample() for name in workloads}
    try:
        for _ in range(rounds):
            for name in workloads:
                for p in pipes:
                    p.send(("warm", name))
                for p in pipes:
                    p.recv()
                start_at = time.perf_counter() + 0.05
                for p in pipes:
                    p.send(("run", name, start_at, duration / rounds))
                results = [p.recv() for p in pipes]
                sample = samples[name]
                elapsed = max(r[1] for r in results)
                ops = sum(len(r[0]) for r in results)
                for latencies, _, rows in results:
                    sample.latencies.extend(latencies)
                    sample.rows += rows
                sample.ops += ops
                sample.seconds += elapsed
                sample.round_throughput.append(ops / elapsed)
    finally:
        for p in pipes:
            p.send(None)
        for proc in procs:
            proc.join(timeout=10)
    return samples


RATIOS = {
    # name: (numerator, denominator) of throughputs, per round, median reported
    "a_vs_baseline": ("a_conversation", "e_baseline"),
    "b_function_vs_baseline": ("b_function", "e_baseline"),
    "b_view_vs_baseline": ("b_view", "e_baseline"),
    "c_vs_baseline": ("c_default", "e_baseline"),
    "a_vs_peer": ("a_conversation", "a_peer"),
    "b_function_vs_peer": ("b_function", "b_peer"),
    "b_view_vs_peer": ("b_view", "b_peer"),
    "b_menu_vs_baseline": ("b_menu", "e_baseline"),
}


def ratios(samples: dict[str, Sample]) -> dict[str, float]:
    out = {}
    for name, (top, bottom) in RATIOS.items():
        if top in samples and bottom in samples:
            per_round = [t / b for t, b in zip(samples[top].round_throughput, samples[bottom].round_throughput) if b]
            out[name] = round(statistics.median(per_round), 3) if per_round else float("nan")
    return out


def check_peer_agrees(url: str, inputs: Inputs, count: int = 300) -> dict[str, int]:
    """The peer must give the SQL's answers, or comparing their speed means nothing."""
    rng = random.Random(7)
    wrong = {"conversations": 0, "catalogs": 0}
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(count):
            cid = inputs.conversations[rng.randrange(len(inputs.conversations))]
            if peer_conversation(conn, cid) != conn.execute(queries.resolve_conversation_agent, (cid,)).fetchone():
                wrong["conversations"] += 1
        for _ in range(count // 10):
            i = rng.randrange(len(inputs.projects) // 2) * 2
            pid, tid = inputs.projects[i], inputs.projects[i + 1]
            sql_rows = [(r[3], r[2]) for r in conn.execute(queries.resolve_agents, (tid, pid)).fetchall()]
            if sql_rows != [(r[0], r[1]) for r in peer_catalog(conn, tid, pid)]:
                wrong["catalogs"] += 1
    return wrong


def gate_cost_ms() -> float:
    """The instruction gate alone on (d)'s texts: the part of an update no database can speed up."""
    texts = update_texts()
    timings = []
    for i in range(30):
        t0 = time.perf_counter()
        validate_instructions(f"{texts[i % len(texts)]}\n\nRevisao {i}.")
        timings.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(timings), 2)


def machine(url: str, setup: str) -> dict[str, object]:
    info: dict[str, object] = {
        "setup": setup, "host": platform.node(), "system": platform.platform(), "cpus": os.cpu_count(),
        "python": platform.python_version(), "psycopg": psycopg.__version__,
    }
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
        info["cpu"] = next(line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name"))
        meminfo = Path("/proc/meminfo").read_text().splitlines()[0]
        info["memory_gb"] = round(int(meminfo.split()[1]) / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError, IndexError):
        pass
    with psycopg.connect(url) as conn:
        info["postgres"] = conn.execute(queries.server_setting, ("server_version",)).fetchone()[0]
        info["settings"] = {name: conn.execute(queries.server_setting, (name,)).fetchone()[0]
                            for name in ("shared_buffers", "fsync", "synchronous_commit", "jit", "work_mem")}
    return info


def run_scale(url: str, scale: str, clients: list[int], duration: float, rounds: int, seed: int,
              say: Callable[[str], None]) -> dict[str, object]:
    inputs = Inputs.load(url)
    result: dict[str, object] = {"peer_disagreements": check_peer_agrees(url, inputs), "clients": {}}
    if any(result["peer_disagreements"].values()):
        say(f"  WARNING: the Python-merge peer disagrees with the SQL: {result['peer_disagreements']}")
    for n in clients:
        load_before = os.getloadavg()[0]
        samples = measure(url, inputs, n, duration, rounds, seed)
        result["clients"][str(n)] = {
            "load_average_before": round(load_before, 2), "load_average_after": round(os.getloadavg()[0], 2),
            "workloads": {name: s.summary() for name, s in samples.items()},
            "ratios": ratios(samples),
        }
        say(f"  {scale}: {n} client(s) done (load average {load_before:.2f} → {os.getloadavg()[0]:.2f})")
    return result


# -- targets (issue: medians of the ratios in one run) --------------------------------------------
def evaluate_targets(report: dict[str, object]) -> list[dict[str, object]]:
    scales: dict[str, dict] = report["scales"]
    out = []

    def add(target: str, value: object, met: bool | None, note: str = "") -> None:
        out.append({"target": target, "value": value, "met": met, "note": note})

    for scale, data in scales.items():
        for n, c in data["clients"].items():
            r = c["ratios"].get("a_vs_baseline")
            add(f"(a) ≥ 0.5× baseline throughput [{scale}, {n} client(s)]", r, r is not None and r >= 0.5)
    order = [s for s in ("S", "M", "L") if s in scales] or list(scales)
    largest, smallest = order[-1], order[0]
    one = lambda scale: scales[scale]["clients"].get("1") or next(iter(scales[scale]["clients"].values()))
    for name in ("b_function", "b_view", "b_menu"):
        w = one(largest)["workloads"][name]
        add(f"(b) p50 ≤ 2 ms, {name} [{largest}, ~{w['rows_per_op']:.0f} agents]", w["p50_ms"], w["p50_ms"] <= 2.0,
            "" if largest == "L" else "L not in this run: checked at the largest scale run")
    if largest != smallest:
        for name in ("a_conversation", "b_function", "b_view", "b_menu", "c_default"):
            big, small = one(largest)["workloads"][name]["p50_ms"], one(smallest)["workloads"][name]["p50_ms"]
            ratio = round(big / small, 2) if small else float("nan")
            add(f"{name} p50 at {largest} ≤ 1.5× {smallest}", ratio, ratio <= 1.5,
                "" if (largest, smallest) == ("L", "S") else "L or S not in this run")
    for scale in order:
        w = one(scale)["workloads"]["d_update"]
        add(f"(d) ≥ 200 validated updates/s, 1 client [{scale}]", w["ops_per_s"], w["ops_per_s"] >= 200)
    # The catalog's "≥ 2× the peer" is retired (both ship the same payload: docs/performance.md);
    # the conversation path's lead over the peer is reported, its target raised to 0.75× at L.
    for scale in order:
        for n, c in scales[scale]["clients"].items():
            r = c["ratios"].get("a_vs_peer")
            add(f"(a) SQL vs the Python-merge peer, no target [{scale}, {n} client(s)]", r, None)
    if "L" in scales:
        r = one("L")["ratios"].get("a_vs_baseline")
        add("(a) ≥ 0.75× baseline throughput [L, 1 client]", r, r is not None and r >= 0.75)
    for scale, contract in report.get("contract", {}).items():
        for name, f in contract["f"].items():
            add(f"(f) {name} hit p50 ≤ 20 µs [{scale}]", f["p50_us"], f["p50_us"] <= 20)
        for n, g in contract["g"].items():
            add(f"(g) invalidation p99 ≤ 100 ms, {n} follower(s) [{scale}]", g["p99_ms"],
                g["p99_ms"] <= 100 and not g["lost"], f"{g['lost']} lost" if g["lost"] else "")
        if "h" in contract:
            r = contract["h"]["ryw_p50_vs_primary"]
            add(f"(h) replica read with read-your-writes ≤ 2× a primary read (p50) [{scale}]", r, r <= 2)
    return out


def format_table(report: dict[str, object]) -> str:
    lines = []
    header = f"{'scale':<5} {'cl':>2}  {'workload':<33} {'p50 ms':>8} {'p99 ms':>8} {'ops/s':>9} {'rows':>6}  ratio"
    lines.append(header)
    lines.append("-" * len(header))
    ratio_of = {"a_conversation": ["a_vs_baseline", "a_vs_peer"], "b_function": ["b_function_vs_baseline", "b_function_vs_peer"],
                "b_view": ["b_view_vs_baseline", "b_view_vs_peer"], "b_menu": ["b_menu_vs_baseline"], "c_default": ["c_vs_baseline"]}
    for scale, data in report["scales"].items():
        for n, c in data["clients"].items():
            for name, w in c["workloads"].items():
                rs = "  ".join(f"{'×e' if k.endswith('baseline') else '×peer'} {c['ratios'][k]:.2f}"
                               for k in ratio_of.get(name, []) if k in c["ratios"])
                lines.append(f"{scale:<5} {n:>2}  {LABELS[name]:<33} {w['p50_ms']:>8.3f} {w['p99_ms']:>8.3f} "
                             f"{w['ops_per_s']:>9.1f} {w['rows_per_op']:>6.1f}  {rs}")
            lines.append("")
    return "\n".join(lines)


def format_contract(report: dict[str, object]) -> str:
    lines = []
    for scale, c in report.get("contract", {}).items():
        for name, w in c["payload"].items():
            lines.append(f"{scale:<5} payload {name:<24} {w['bytes_per_catalog']:>10,} bytes on the wire per catalog")
        for name, f in c["f"].items():
            lines.append(f"{scale:<5} (f) {name:<27} p50 {f['p50_us']:>8.2f} µs  p99 {f['p99_us']:>8.2f} µs  "
                         f"{f['hits_per_s']:>10,} hits/s")
        for n, g in c["g"].items():
            lines.append(f"{scale:<5} (g) invalidation, {n} follower(s)    p50 {g['p50_ms']:>8.3f} ms  "
                         f"p99 {g['p99_ms']:>8.3f} ms  ({g['edits']} edits, {g['lost']} lost)")
        if "h" in c:
            for name in ("h_primary", "h_replica", "h_replica_ryw"):
                w = c["h"][name]
                lines.append(f"{scale:<5} (h) {name:<27} p50 {w['p50_ms']:>8.3f} ms  p99 {w['p99_ms']:>8.3f} ms  "
                             f"{w['ops_per_s']:>9.1f} ops/s")
            lines.append(f"{scale:<5} (h) read-your-writes p50 ÷ primary p50: {c['h']['ryw_p50_vs_primary']}")
        lines.append("")
    return "\n".join(lines)


def format_targets(targets: list[dict[str, object]]) -> str:
    return "\n".join(f"  [{'met ' if t['met'] else ('    ' if t['met'] is None else 'MISS')}] {t['target']}: {t['value']}"
                     + (f"  ({t['note']})" if t["note"] else "") for t in targets)


def write_json(report: dict[str, object], path: str | Path) -> None:
    Path(path).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# -- the whole run ----------------------------------------------------------------------------------
BENCH_SERVER_SETTINGS = {
    # PostgreSQL's 128MB default is a toy's; 1GB holds the L database's hot part, as a real
    # deployment's shared_buffers would. Everything else stays at its default.
    "shared_buffers": "1GB",
}


def _throwaway_setup(server) -> None:
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        for name, value in BENCH_SERVER_SETTINGS.items():
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
    server.stop()
    server.start()


@contextlib.contextmanager
def _standby_of(server):
    """The throwaway server with the bench's settings, and a streaming hot standby of it for (h),
    started before any data so that it replays the generation as it happens."""
    from registry.replication import start_standby

    _throwaway_setup(server)
    standby = start_standby(server, server.data_dir.parent / "standby")
    try:
        yield standby
    finally:
        standby.stop()


def _fresh_database(server, name: str) -> str:
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


def _drop_database(server, name: str) -> None:
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def benchmark(url: str | None, scales: list[str], clients: list[int], duration: float, rounds: int, seed: int,
              say: Callable[[str], None]) -> dict[str, object]:
    """Run every scale; without a URL each gets its own database on a throwaway server."""
    from registry import migrate
    from registry.bench.generate import SCALES, generate
    from registry.embedded import throwaway_server

    report: dict[str, object] = {
        "command": "registry bench run --scale " + " ".join(scales) + " --clients " + " ".join(map(str, clients))
                   + f" --duration {duration:g} --rounds {rounds} --seed {seed}",
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "load_average_start": os.getloadavg(),
        "gate_ms_on_update_text": gate_cost_ms(), "scales": {}, "generation": {},
    }

    report["contract"] = {}

    def one_scale(scale_url: str, scale: str, standby_url: str | None = None) -> None:
        from registry.bench.contract import measure_contract

        say(f"{scale}: benchmarking ({duration:g} s per workload and client count, {rounds} rounds)")
        report["scales"][scale] = run_scale(scale_url, scale, clients, duration, rounds, seed, say)
        say(f"{scale}: the cache contract (f, g) and replica reads (h)")
        report["contract"][scale] = measure_contract(scale_url, standby_url, Inputs.load(scale_url), say)

    if url is not None:
        if len(scales) != 1:
            raise ValueError("with --url, give one --scale: the database holds one data set")
        migrate.upgrade(url, "head")
        with psycopg.connect(url) as conn:
            empty = not conn.execute(queries.bench_has_data).fetchone()[0]
        if empty:
            say(f"{scales[0]}: generating into the given database (seed {seed})")
            report["generation"][scales[0]] = generate(url, SCALES[scales[0]], seed, progress=say)
        else:
            say("the database has data: benchmarking it as it is (--scale only labels the figures)")
        report["machine"] = machine(url, "the database given by --url / REGISTRY_DATABASE_URL")
        from registry.db import read_urls
        one_scale(url, scales[0], next(iter(read_urls()), None))  # (h) on REGISTRY_READ_URL's first, if any
    else:
        with throwaway_server() as server, _standby_of(server) as standby:
            report["machine"] = machine(server.url("postgres"),
                                        "throwaway embedded PostgreSQL on this machine, same host as the clients "
                                        "(TCP over loopback), fsync off, shared_buffers 1GB; a streaming hot "
                                        "standby beside it (for h)")
            for scale in scales:
                name = f"bench_{scale.lower()}"
                scale_url = _fresh_database(server, name)
                migrate.upgrade(scale_url, "head")
                say(f"{scale}: generating (seed {seed})")
                report["generation"][scale] = generate(scale_url, SCALES[scale], seed, progress=say)
                say(f"{scale}: generated in {report['generation'][scale]['seconds']:.1f} s")
                one_scale(scale_url, scale, standby.url(name))
                _drop_database(server, name)
    report["load_average_end"] = os.getloadavg()
    report["targets"] = evaluate_targets(report)
    return report
