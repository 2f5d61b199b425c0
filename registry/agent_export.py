"""Exporting agents as files (the seeds' format), with each layer's scope file — and saying which of
them `registry import` would refuse.

An export is a backup: it writes every row as the database holds it. A tenant's own rows can hold
what the import refuses, written in SQL where the CLI and the API would have refused it (a name
with a line break, an instruction the gate refuses, a tool profile or a group name the models
refuse), and the import of the export, all or nothing, is then refused whole — every other
tenant's rows with it (hostile round 13, R12; ADR 0025). So each file is read back, once written,
through the import's own checks (registry.agent_io.check_files, registry.scope_files), and each
one they refuse is reported with its tenant, its file and the reason; the export goes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from psycopg.rows import dict_row
from pydantic import ValidationError

from registry import queries, scope_files, yaml_files
from registry.agent_files import read_agent_file
from registry.agent_io import CONTENT_FIELDS, check_files
from registry.api import Registry
from registry.errors import InvalidInput
from registry.models import Agent, describe_validation_error
from registry.text_files import TextFileError, TextFileMissing


@dataclass(frozen=True)
class Unimportable:
    """A file the export wrote and `registry import` would refuse: whose, where, and why."""

    tenant: str | None  # None: the official layer
    project: str | None
    file: str
    reason: str


@dataclass
class ExportReport:
    agent_files: list[Path] = field(default_factory=list)
    scope_files: list[Path] = field(default_factory=list)
    would_be_refused: list[Unimportable] = field(default_factory=list)


def render_agent_file(agent: Mapping[str, object], tenant: str | None, project: str | None) -> str:
    """The file that imports back to this agent, byte-stable (keys in a fixed order). `agent` holds
    an agent row's fields as JSON values (Agent.model_dump(mode="json"), or the row itself)."""
    header: dict[str, object] = {}
    if tenant is not None:
        header["tenant"] = tenant
    if project is not None:
        header["project"] = project
    header |= {key: agent[key] for key in ("slug", "name", "description", "when_to_use", "requires", "status")}
    if not agent["enabled"]:
        header["enabled"] = False
    for key in ("note", "created_by", "tool_profile"):
        if agent[key] is not None:
            header[key] = agent[key]
    return f"---\n{yaml_files.dump(header)}---\n{agent['instructions']}\n"


def export_agents(registry: Registry, directory: Path, tenant: str | int | None = None) -> ExportReport:
    """Write every agent (or the official ones and one tenant's) as files under `directory`:
    official/<slug>.md, <tenant>/<slug>.md, <tenant>/<project>/<slug>.md, and each layer's dataset
    groups and glossary terms as <tenant>/scope.yaml and <tenant>/<project>/scope.yaml."""
    report = ExportReport()
    if directory.exists() and not directory.is_dir():
        raise InvalidInput(f"{directory}: exists and is not a folder: give a folder to export into")
    with registry.transaction() as conn:
        tenant_id = registry.scope_in(conn, tenant, None).tenant_id if tenant is not None else None
        for agent_id, tenant_slug, project_slug in conn.execute(queries.agents_to_export, {"tenant": tenant_id}).fetchall():
            with conn.cursor(row_factory=dict_row) as cur:
                row = cur.execute(queries.agent_with_scope, (agent_id,)).fetchone()
            try:
                agent: Agent | None = Agent.model_validate({k: row[k] for k in Agent.model_fields})
                fields = agent.model_dump(mode="json")
            except ValidationError as error:
                # A shape the database takes and the models do not (a tool profile's glob written in SQL): the row
                # goes into the backup as stored. Before, this ended the whole export.
                agent, fields, shape = None, row, describe_validation_error(error)
            folder = directory.joinpath(*(part for part in (tenant_slug or "official", project_slug) if part))
            target = folder / f"{row['slug']}.md"
            _write(target, render_agent_file(fields, tenant_slug, project_slug), report)
            report.agent_files.append(target)
            if agent is not None:
                reason = _refused_agent_file(target, agent)
            else:
                reason = _refused_agent_file(target) or shape
            if reason is not None:
                report.would_be_refused.append(Unimportable(tenant_slug, project_slug, str(target), reason))
        for target, tenant_slug, project_slug in scope_files.export_scope_files(conn, directory, tenant_id):
            report.scope_files.append(target)
            if (reason := _refused_scope_file(target)) is not None:
                report.would_be_refused.append(Unimportable(tenant_slug, project_slug, str(target), reason))
    return report


def _write(target: Path, text: str, report: ExportReport) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidInput(f"cannot write {target}: {error.strerror or error}; "
                           f"{len(report.agent_files)} file(s) were written before it") from error


def _refused_agent_file(path: Path, agent: Agent | None = None) -> str | None:
    """Why `registry import` would refuse this file (the import's own checks), or would write back
    something else than `agent`, the row it was written from; None when it would take it as it is."""
    _, checked = check_files([path])
    if checked.refused:
        return checked.refused[0][1]
    if agent is None:
        return None
    read = read_agent_file(path)
    differs = [name for name in ("slug", *CONTENT_FIELDS) if getattr(read, name) != getattr(agent, name)]
    if differs:
        return (f"it reads back with another {', '.join(differs)} than the row holds: the import would change the "
                "row, not restore it")
    return None


def _refused_scope_file(path: Path) -> str | None:
    try:
        scope_files.read_scope_file(path)
    except (scope_files.ScopeFileError, TextFileError, TextFileMissing) as error:
        return str(error).removeprefix(f"{path}: ")
    return None
