"""`registry demo`: migrate, seed, and show one demo project resolved — a first run's whole tour."""

from __future__ import annotations

import argparse

import psycopg
from psycopg.rows import dict_row

from registry import db, migrate, queries, repository
from registry.api import Registry
from registry.embedded import default_data_dir
from registry.explain import missing_words
from registry.render import describe_default, table
from registry.seeding import load_seeds

from .agents import catalog_table
from .parsing import command

DEMO_TENANT = "acme"
DEMO_PROJECT = "financeiro"


def cmd_demo(args: argparse.Namespace) -> None:
    url = db.database_url()
    where = "REGISTRY_DATABASE_URL" if db.configured_url() else f"the embedded PostgreSQL in {default_data_dir()}"
    print(f"Database: {where}")
    migrate.upgrade(url, "head")
    print("Migrated to head.")
    with db.connect(url) as conn:
        report = load_seeds(conn)
        print(f"Seeds loaded ({report.total} rows inserted or changed; 0 means they were already there).")
        registry = Registry(conn)
        with registry.transaction() as conn:  # what the demo shows, read in one transaction
            scope = registry.scope_in(conn, DEMO_TENANT, DEMO_PROJECT)
            tenant, project = scope.tenant, scope.project
            agents = registry.agents_in(conn, scope)
            default = repository.effective_default(conn, tenant.id, project.id)
            conversations = [repository.conversation_agent(conn, cid) for cid in _conversations(conn, project.id)]
            availability = _availability(conn, tenant.id)
    print()
    print(f"Effective catalog of project {tenant.slug}/{project.slug} (the most specific layer wins by slug):")
    print(catalog_table(agents))
    print()
    print(describe_default(default))
    print()
    print("Conversations, one in each state:")
    print(table(["id", "mode", "slug", "agent", "orphaned"],
                [(c.conversation_id, c.mode, c.slug, c.agent_id, c.orphaned) for c in conversations]))
    print()
    print(f"Availability in {tenant.slug}'s projects of the agents that require something (a property of the "
          "winner: an unavailable agent stays, reported, and conversations run without it):")
    print(table(["slug", "project", "available", "missing"],
                [(r["slug"], r["project_slug"], r["available"], None if r["available"] else missing_words(r["missing"]))
                 for r in availability]))
    print()
    print("Next: registry explain --tenant acme --project vendas conciliador-bancario   (why, layer by layer)")
    print("      registry agents --tenant acme --project vendas   (an opt-out and a draft override;")
    print("      from the checkout: ./dev agents --tenant acme --project vendas)")


def _availability(conn: psycopg.Connection, tenant_id: int) -> list[dict]:
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(queries.demo_availability, (tenant_id,)).fetchall()


def _conversations(conn: psycopg.Connection, project_id: int) -> list[int]:
    rows = conn.execute(queries.conversations_of_project, (project_id,)).fetchall()
    return [r[0] for r in rows]


def register(commands: argparse._SubParsersAction) -> None:
    command(commands, "demo", "migrate, load the seeds and show a demo project's resolved agents", cmd_demo)
