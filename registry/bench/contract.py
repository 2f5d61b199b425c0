"""The cache contract and the replicas, measured (`registry bench run`, docs/performance.md):

    (f)  f_cached_catalog, f_cached_conversation   a ScopeCache hit, in process: p50/p99 µs, hits/s
    (g)  g_invalidation_1, g_invalidation_4        an agent edit's commit to the moment every
                                                   follower (a process with its ScopeCache and
                                                   watcher) has dropped the old version
    (h)  h_primary, h_replica, h_replica_ryw       Registry.conversation_with_agent on the primary,
                                                   on a standby, and on the standby with
                                                   read-your-writes, its replay position checked
                                                   on every read (the worst case)

Every timing uses time.monotonic/perf_counter on one machine (followers are forked processes
on the same clock); nothing here asserts.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import threading
import time
from collections.abc import Callable

import psycopg

from registry import queries
from registry.api import Registry
from registry.bench.run import Inputs
from registry.cache import ScopeCache
from registry.replicas import Replicas, lsn_value
from registry.watch import watch_changes


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50": pick(0.5), "p99": pick(0.99), "n": len(ordered)}


def _timed(call: Callable[[], object], count: int) -> tuple[list[float], float]:
    latencies = []
    started = time.perf_counter()
    for _ in range(count):
        t0 = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - t0)
    return latencies, time.perf_counter() - started


# -- (f) cached hits ---------------------------------------------------------------------------------
def cached_hits(url: str, inputs: Inputs, count: int = 20_000, scopes: int = 200, seed: int = 1) -> dict:
    rng = random.Random(seed)
    with psycopg.connect(url, autocommit=True) as conn:
        cache = ScopeCache(Registry(conn), product_rules="REGRAS.")
        pairs = [(inputs.projects[i + 1], inputs.projects[i])
                 for i in (rng.randrange(len(inputs.projects) // 2) * 2 for _ in range(scopes))]
        conversations = [inputs.conversations[rng.randrange(len(inputs.conversations))] for _ in range(scopes * 10)]
        for tenant_id, project_id in pairs:
            cache.catalog(tenant_id, project_id)
        for cid in conversations:
            cache.conversation(cid)
        out = {}
        for name, call in (("f_cached_catalog", lambda: cache.catalog(*pairs[rng.randrange(len(pairs))])),
                           ("f_cached_conversation",
                            lambda: cache.conversation(conversations[rng.randrange(len(conversations))]))):
            misses = cache.misses
            latencies, seconds = _timed(call, count)
            q = _quantiles(latencies)
            out[name] = {"p50_us": round(q["p50"] * 1e6, 2), "p99_us": round(q["p99"] * 1e6, 2),
                         "hits_per_s": round(count / seconds), "misses": cache.misses - misses}
    return out


# -- (g) invalidation latency ------------------------------------------------------------------------------
def _follower(url: str, tenant_id: int, project_id: int, pipe) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        cache = ScopeCache(Registry(conn), product_rules="REGRAS.")
        ready, stop = threading.Event(), threading.Event()

        def applied(change, dropped: int) -> None:
            if change.agent_id is not None and change.version is not None:
                pipe.send((change.agent_id, change.version, time.monotonic()))

        cache.follow(watch_changes(url, stop=stop, poll_seconds=0.2, ready=ready), on_applied=applied)
        ready.wait(10)
        cache.catalog(tenant_id, project_id)
        pipe.send("ready")
        pipe.recv()  # until told to stop
        stop.set()


def invalidation_latency(url: str, inputs: Inputs, followers: int, edits: int = 200) -> dict:
    """Commit of an agent edit (a plain UPDATE, autocommit: the time includes the statement)
    to the moment the last follower has dropped the entries of the old version."""
    with psycopg.connect(url, autocommit=True) as conn:
        agent_id = inputs.update_targets[0]
        tenant_id, project_id, text = conn.execute(
            "SELECT tenant_id, project_id, instructions FROM agents WHERE id = %s", (agent_id,)).fetchone()
        ctx = mp.get_context("fork")
        pipes, procs = [], []
        for _ in range(followers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_follower, args=(url, tenant_id, project_id, child), daemon=True)
            proc.start()
            pipes.append(parent)
            procs.append(proc)
        try:
            for pipe in pipes:
                assert pipe.recv() == "ready"
            latencies, lost = [], 0
            for i in range(edits):
                t0 = time.monotonic()
                version = conn.execute("UPDATE agents SET instructions = %s WHERE id = %s RETURNING version",
                                       (f"{text}\n\nRevisao {i}.", agent_id)).fetchone()[0]
                last = 0.0
                for pipe in pipes:
                    while True:
                        if not pipe.poll(5):
                            lost += 1
                            break
                        seen_id, seen_version, at = pipe.recv()
                        if (seen_id, seen_version) == (agent_id, version):
                            last = max(last, at)
                            break
                if last:
                    latencies.append(last - t0)
                time.sleep(0.005)  # one edit at a time, as edits come
        finally:
            for pipe in pipes:
                pipe.send("stop")
            for proc in procs:
                proc.join(10)
    q = _quantiles(latencies)
    return {"p50_ms": round(q["p50"] * 1000, 3), "p99_ms": round(q["p99"] * 1000, 3), "edits": edits,
            "lost": lost, "followers": followers}


# -- (h) reads on a standby --------------------------------------------------------------------------
def replica_reads(primary_url: str, standby_url: str, inputs: Inputs, duration: float = 6.0, rounds: int = 3,
                  seed: int = 1) -> dict:
    rng = random.Random(seed)
    with psycopg.connect(primary_url, autocommit=True) as primary, \
            psycopg.connect(standby_url, autocommit=True) as standby:
        on_primary = Registry(primary)
        replicas = Replicas([standby], max_wait_seconds=1.0)
        on_replica = Registry(primary, read=replicas)
        position = primary.execute(queries.commit_position).fetchone()[0]

        def ryw(cid: int) -> object:
            replicas.forget_positions()  # the replay position checked on every read
            return on_replica.conversation_with_agent(cid, min_lsn=position)

        ops = {"h_primary": lambda cid: on_primary.conversation_with_agent(cid),
               "h_replica": lambda cid: on_replica.conversation_with_agent(cid),
               "h_replica_ryw": ryw}
        conversation = lambda: inputs.conversations[rng.randrange(len(inputs.conversations))]  # noqa: E731
        samples: dict[str, list[float]] = {name: [] for name in ops}
        calls: dict[str, tuple[int, float]] = {name: (0, 0.0) for name in ops}
        for _ in range(rounds):
            for name, op in ops.items():
                for _ in range(10):
                    op(conversation())
                end = time.perf_counter() + duration / rounds / len(ops)
                n, started = 0, time.perf_counter()
                while time.perf_counter() < end:
                    cid = conversation()
                    t0 = time.perf_counter()
                    op(cid)
                    samples[name].append(time.perf_counter() - t0)
                    n += 1
                calls[name] = (calls[name][0] + n, calls[name][1] + time.perf_counter() - started)
    out = {}
    for name, latencies in samples.items():
        q = _quantiles(latencies)
        out[name] = {"p50_ms": round(q["p50"] * 1000, 3), "p99_ms": round(q["p99"] * 1000, 3),
                     "ops_per_s": round(calls[name][0] / calls[name][1], 1)}
    out["ryw_p50_vs_primary"] = round(out["h_replica_ryw"]["p50_ms"] / out["h_primary"]["p50_ms"], 2)
    out["counts"] = {"replica": replicas.counts.replica, "primary": replicas.counts.primary}
    return out


def wait_replayed(primary_url: str, standby_url: str, seconds: float = 600) -> None:
    """Until the standby has replayed everything the primary has written so far (a bulk load)."""
    with psycopg.connect(primary_url, autocommit=True) as primary, \
            psycopg.connect(standby_url, autocommit=True) as standby:
        target = lsn_value(primary.execute(queries.commit_position).fetchone()[0])
        deadline = time.monotonic() + seconds
        while lsn_value(standby.execute(queries.replayed_position).fetchone()[0]) < target:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the standby did not replay the data within {seconds:g} s")
            time.sleep(0.2)


def catalog_payload(url: str, inputs: Inputs, count: int = 30, seed: int = 1) -> dict:
    """Bytes on the wire per catalog (text format): every DataRow message's fields and framing
    (1 + 4 + 2 bytes a row, 4 a field), for the catalog (b) and the menu columns (b menu)."""
    rng = random.Random(seed)
    out = {}
    with psycopg.connect(url, autocommit=True) as conn:
        picks = [rng.randrange(len(inputs.projects) // 2) * 2 for _ in range(count)]
        for name, query in (("b_function", queries.resolve_agents), ("b_menu", queries.bench_catalog_menu)):
            sizes = []
            for i in picks:
                with conn.cursor() as cur:
                    cur.execute(query, (inputs.projects[i + 1], inputs.projects[i]))
                    result = cur.pgresult
                    size = sum(7 + sum(4 + len(result.get_value(r, c) or b"") for c in range(result.nfields))
                               for r in range(result.ntuples))
                sizes.append(size)
            out[name] = {"bytes_per_catalog": round(sum(sizes) / len(sizes)),
                         "kb_per_catalog": round(sum(sizes) / len(sizes) / 1024, 1)}
    return out


def measure_contract(url: str, standby_url: str | None, inputs: Inputs, say: Callable[[str], None]) -> dict:
    result: dict = {"payload": catalog_payload(url, inputs), "f": cached_hits(url, inputs)}
    say("  (f) cached hits done")
    result["g"] = {str(n): invalidation_latency(url, inputs, n) for n in (1, 4)}
    say("  (g) invalidation latency done")
    if standby_url is not None:
        wait_replayed(url, standby_url)
        result["h"] = replica_reads(url, standby_url, inputs)
        say("  (h) replica reads done")
    return result
