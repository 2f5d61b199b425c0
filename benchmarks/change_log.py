"""What a durable change log would cost every write (ADR 0016): agent updates with and without
a log trigger (one row per change into a table with an identity position), interleaved rounds,
on a throwaway server. Prints figures; asserts nothing; nothing of it is in the schema.

    .venv/bin/python benchmarks/change_log.py [--updates 2000] [--rounds 4]
"""

from __future__ import annotations

import argparse
import statistics
import time

import psycopg

from registry.embedded import throwaway_server
from registry.schema import apply_schema

LOG = """
CREATE TABLE change_log (
    position   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id  bigint,
    table_name text NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_log_changed_at_idx ON change_log (changed_at);
CREATE FUNCTION log_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_log (tenant_id, table_name) VALUES (COALESCE(NEW.tenant_id, OLD.tenant_id), TG_TABLE_NAME);
    RETURN NULL;
END $$;
"""
ON = "CREATE TRIGGER agents_log AFTER INSERT OR UPDATE OR DELETE ON agents FOR EACH ROW EXECUTE FUNCTION log_change()"
OFF = "DROP TRIGGER IF EXISTS agents_log ON agents"


def updates(conn: psycopg.Connection, ids: list[int], count: int, start: int) -> float:
    """Microseconds per autocommitted update of an agent's instructions (history trigger included)."""
    t0 = time.perf_counter()
    for i in range(count):
        conn.execute("UPDATE agents SET instructions = %s WHERE id = %s",
                     (f"Escreva com clareza. Revisao {start + i}.", ids[i % len(ids)]))
    return (time.perf_counter() - t0) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    with throwaway_server() as server, psycopg.connect(server.url(), autocommit=True) as conn:
        apply_schema(conn)
        conn.execute(LOG)
        tenant = conn.execute("INSERT INTO tenants (slug) VALUES ('acme') RETURNING id").fetchone()[0]
        ids = [conn.execute("INSERT INTO agents (tenant_id, slug, instructions) VALUES (%s, %s, 'x') RETURNING id",
                            (tenant, f"a{i}")).fetchone()[0] for i in range(50)]
        figures: dict[str, list[float]] = {"without": [], "with": []}
        done = 0
        for _ in range(args.rounds):
            for name, ddl in (("without", OFF), ("with", ON)):
                conn.execute(ddl)
                updates(conn, ids, 100, done)  # warm
                figures[name].append(updates(conn, ids, args.updates, done))
                done += args.updates + 100
        rows = conn.execute("SELECT count(*) FROM change_log").fetchone()[0]
    without, with_log = statistics.median(figures["without"]), statistics.median(figures["with"])
    print(f"update without a log: {without:.1f} µs; with a log row: {with_log:.1f} µs "
          f"(+{with_log - without:.1f} µs, {with_log / without - 1:+.1%}); medians of {args.rounds} rounds "
          f"of {args.updates}; {rows} log rows written")


if __name__ == "__main__":
    main()
