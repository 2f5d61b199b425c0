"""Adoption under contention: 4 clients starting conversations that adopt the SAME agent, then 4
adopting DIFFERENT agents. Counting must not serialise on a popular agent's row, so the first
should reach at least 0.8x the throughput of the second. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/adoption.py [SECONDS] [CLIENTS]

Runs on a throwaway embedded PostgreSQL (fsync off), migrated to head.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

import psycopg

from registry.embedded import throwaway_server
from registry.migrate import upgrade

START = "INSERT INTO conversations (tenant_id, project_id, agent_slug) VALUES (%s, %s, %s)"


def prepare(url: str, clients: int) -> tuple[int, int]:
    with psycopg.connect(url, autocommit=True) as conn:
        tenant = conn.execute("INSERT INTO tenants (slug) VALUES ('bench') RETURNING id").fetchone()[0]
        project = conn.execute("INSERT INTO projects (tenant_id, slug) VALUES (%s, 'p') RETURNING id",
                               (tenant,)).fetchone()[0]
        for i in range(clients):
            conn.execute("INSERT INTO agents (slug, instructions, status) VALUES (%s, 'Seja claro.', 'published')",
                         (f"agent-{i}",))
    return tenant, project


def run(url: str, scope: tuple[int, int], slugs: list[str], seconds: float) -> float:
    """Conversations started per second, all clients together."""
    counts = [0] * len(slugs)
    start = threading.Barrier(len(slugs) + 1)
    deadline: list[float] = []

    def client(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT 1")
            start.wait()
            while time.monotonic() < deadline[0]:
                conn.execute(START, (*scope, slugs[i]), prepare=True)
                counts[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(slugs))]
    for t in threads:
        t.start()
    deadline.append(time.monotonic() + seconds)
    start.wait()
    began = time.monotonic()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - began)


def main(seconds: float, clients: int, rounds: int = 3) -> None:
    with throwaway_server() as server:
        url = server.url()
        upgrade(url, "head")
        scope = prepare(url, clients)
        same, different = [], []
        for _ in range(rounds):  # interleaved, so drift on a shared machine hits both alike
            same.append(run(url, scope, ["agent-0"] * clients, seconds))
            different.append(run(url, scope, [f"agent-{i}" for i in range(clients)], seconds))
        with psycopg.connect(url) as conn:
            per_agent = conn.execute("SELECT agent_id, uses FROM agent_uses ORDER BY agent_id").fetchall()
    s, d = statistics.median(same), statistics.median(different)
    print(f"adoption, {clients} clients, {rounds} rounds of {seconds:g} s each (median):")
    print(f"  same agent       {s:8.0f} conversations/s   rounds: {', '.join(f'{x:.0f}' for x in same)}")
    print(f"  different agents {d:8.0f} conversations/s   rounds: {', '.join(f'{x:.0f}' for x in different)}")
    print(f"  ratio same/different: {s / d:.2f}  (target >= 0.80)")
    print(f"  uses per agent: {dict(per_agent)}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0, int(sys.argv[2]) if len(sys.argv) > 2 else 4)
