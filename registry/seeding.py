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

from registry import queries, vocabulary
from registry.agent_io import accepted_files, apply_agent_files
from registry.api import Registry
from registry.paths import SEEDS_DIR

OFFICIAL_AGENTS_DIR = SEEDS_DIR / "agents"
DEMO_AGENTS_DIR = SEEDS_DIR / "demo" / "agents"
DEMO_FILE = SEEDS_DIR / "demo.yaml"



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
        report.add("tenants", cur.execute(queries.seed_tenant, tenant).rowcount)
        for project in tenant.get("projects", []):
            report.add("projects", cur.execute(queries.seed_project, {**project, "tenant": tenant["slug"]}).rowcount)
    _load_agents(registry, conn, report, agents_dir)
    def scope_ids(entry: dict) -> dict:
        scope = registry.scope_in(conn, entry.get("tenant"), entry.get("project"))
        return {"tenant_id": scope.tenant_id, "project_id": scope.project_id}

    for default in data.get("defaults", []):
        params = scope_ids(default) | {"default_agent": default["default_agent"]}
        report.add("defaults", cur.execute(queries.set_default, params).rowcount)
    for kind, key in (("group", "groups"), ("term", "terms")):
        for entry in data.get(key, []):
            ids = scope_ids(entry)
            report.add(key, len(vocabulary.add(conn, kind, ids["tenant_id"], ids["project_id"], entry["names"])))
    for optout in data.get("optouts", []):
        report.add("optouts", cur.execute(queries.seed_optout, optout | scope_ids(optout)).rowcount)
    for conversation in data.get("conversations", []):
        report.add("conversations", cur.execute(queries.seed_conversation, conversation | scope_ids(conversation)).rowcount)
    for convention in data.get("conventions", []):
        report.add("conventions", cur.execute(queries.seed_convention, _convention_params(convention)
                                              | scope_ids(convention)).rowcount)


def _convention_params(entry: dict) -> dict:
    """A demo convention as the API would store it: the gate on its text, its directory normalised."""
    from registry.conventions import check_convention_text
    from registry.harness.scoped_conventions import normalise_directory, normalise_language

    directory = entry.get("dir")
    return {"directory": None if directory is None else normalise_directory(directory),
            "language": normalise_language(entry.get("language")), "body": check_convention_text(entry["text"])}
