"""Loading the seeds: the official agents, and the demo tenants, projects and conversations.

Idempotent: every row is an upsert by its natural key (slugs), and an upsert that would
change nothing does not touch the row. Agents go through the same write path as an import
(the gate included). One transaction: a bad file leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import yaml

from registry.agent_io import accepted_files, apply_agent_files
from registry.api import Registry
from registry.paths import SEEDS_DIR

OFFICIAL_AGENTS_DIR = SEEDS_DIR / "agents"
DEMO_AGENTS_DIR = SEEDS_DIR / "demo" / "agents"
DEMO_FILE = SEEDS_DIR / "demo.yaml"

UPSERT_TENANT = """
INSERT INTO public.tenants (slug, name) VALUES (%(slug)s, %(name)s)
ON CONFLICT ON CONSTRAINT tenants_slug_key DO UPDATE SET name = EXCLUDED.name
 WHERE tenants.name IS DISTINCT FROM EXCLUDED.name
"""
UPSERT_PROJECT = """
INSERT INTO public.projects (tenant_id, slug, name)
SELECT t.id, %(slug)s, %(name)s FROM public.tenants t WHERE t.slug = %(tenant)s
ON CONFLICT ON CONSTRAINT projects_tenant_slug_key DO UPDATE SET name = EXCLUDED.name
 WHERE projects.name IS DISTINCT FROM EXCLUDED.name
"""
UPSERT_DEFAULT = """
INSERT INTO public.agent_defaults (tenant_id, project_id, default_agent)
VALUES (%(tenant_id)s, %(project_id)s, %(default_agent)s)
ON CONFLICT ON CONSTRAINT agent_defaults_pkey DO UPDATE SET default_agent = EXCLUDED.default_agent
 WHERE agent_defaults.default_agent IS DISTINCT FROM EXCLUDED.default_agent
"""
INSERT_OPTOUT = """
INSERT INTO public.agent_optouts (project_id, agent_id)
SELECT %(project_id)s, a.id FROM public.agents a
 WHERE a.slug = %(agent)s AND a.layer = %(layer)s
   AND a.scope_tenant_id = CASE WHEN %(layer)s = 'official' THEN 0 ELSE %(tenant_id)s END
   AND a.scope_project_id = 0
ON CONFLICT ON CONSTRAINT agent_optouts_pkey DO NOTHING
"""
UPSERT_CONVERSATION = """
INSERT INTO public.conversations (tenant_id, project_id, slug, title, agent_slug)
VALUES (%(tenant_id)s, %(project_id)s, %(slug)s, %(title)s, %(agent_slug)s)
ON CONFLICT ON CONSTRAINT conversations_tenant_slug_key DO UPDATE
   SET project_id = EXCLUDED.project_id, title = EXCLUDED.title, agent_slug = EXCLUDED.agent_slug
 WHERE (conversations.project_id, conversations.title, conversations.agent_slug)
       IS DISTINCT FROM (EXCLUDED.project_id, EXCLUDED.title, EXCLUDED.agent_slug)
"""


@dataclass
class SeedReport:
    """How many rows each kind of seed inserted or changed (0 everywhere on a reload)."""

    changed: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, count: int) -> None:
        self.changed[kind] = self.changed.get(kind, 0) + max(count, 0)

    @property
    def total(self) -> int:
        return sum(self.changed.values())


def load_seeds(conn: psycopg.Connection, demo: bool = True) -> SeedReport:
    """Official agents, and the demo data unless demo=False; one transaction."""
    report = SeedReport()
    registry = Registry(conn, actor="seeds")
    with registry.transaction(), conn.cursor() as cur:
        _load_agents(registry, conn, report, OFFICIAL_AGENTS_DIR)
        if demo:
            _load_demo(registry, conn, cur, report, DEMO_FILE, DEMO_AGENTS_DIR)
    return report


def _load_agents(registry: Registry, conn: psycopg.Connection, report: SeedReport, directory: Path) -> None:
    """Agents go through the API's write path (the gate, history), like any import."""
    applied = apply_agent_files(registry, conn, accepted_files(directory))
    report.add("agents", len(applied.created) + len(applied.updated))


def _load_demo(registry: Registry, conn: psycopg.Connection, cur: psycopg.Cursor, report: SeedReport,
               demo_file: Path, agents_dir: Path) -> None:
    data = yaml.safe_load(demo_file.read_text(encoding="utf-8"))
    for tenant in data.get("tenants", []):
        report.add("tenants", cur.execute(UPSERT_TENANT, tenant).rowcount)
        for project in tenant.get("projects", []):
            report.add("projects", cur.execute(UPSERT_PROJECT, {**project, "tenant": tenant["slug"]}).rowcount)
    _load_agents(registry, conn, report, agents_dir)
    def scope_ids(entry: dict) -> dict:
        scope = registry.scope_in(conn, entry.get("tenant"), entry.get("project"))
        return {"tenant_id": scope.tenant_id, "project_id": scope.project_id}

    for default in data.get("defaults", []):
        params = scope_ids(default) | {"default_agent": default["default_agent"]}
        report.add("defaults", cur.execute(UPSERT_DEFAULT, params).rowcount)
    for optout in data.get("optouts", []):
        report.add("optouts", cur.execute(INSERT_OPTOUT, optout | scope_ids(optout)).rowcount)
    for conversation in data.get("conversations", []):
        report.add("conversations", cur.execute(UPSERT_CONVERSATION, conversation | scope_ids(conversation)).rowcount)
