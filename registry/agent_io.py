"""Importing agent files (the seeds' format) through the API's write path (exporting them:
registry.agent_export).

An import is all-or-nothing: every file is parsed and its instructions put through the gate
first, and every refusal is reported together; only a clean set is written, in one
transaction, creating what is new, updating what differs and leaving the rest untouched —
so importing the same files twice changes nothing. An export of several tenants can be imported
one tenant directory at a time, each all or nothing (registry.tenant_imports, `--each-tenant`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg.rows import class_row

from registry import queries, scope_files
from registry.agent_files import AgentFileError, read_agent_file
from registry.api import Registry, check_prompt_fields
from registry.errors import RegistryError
from registry.gate import InstructionsRejected, validate_instructions
from registry.models import Agent, AgentContent, AgentFile
from registry.shadowing import inherited
from registry.text_files import TextFileError, TextFileMissing

CONTENT_FIELDS = ("name", "description", "when_to_use", "requires", "instructions", "status", "enabled", "note",
                  "tool_profile")


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    # Files whose agent now shows and hides an inherited one, with what it hides (registry.shadowing).
    shadowing: list[tuple[str, str]] = field(default_factory=list)
    # Dataset groups and glossary terms the scope files added (registry.scope_files).
    names_added: int = 0

    def summary(self) -> str:
        text = (f"{len(self.created)} created, {len(self.updated)} updated, "
                f"{len(self.unchanged)} unchanged, {len(self.refused)} refused")
        if self.shadowing:
            text += f", {len(self.shadowing)} shadowing an inherited agent"
        if self.names_added:
            text += f", {self.names_added} group(s) or term(s) added"
        return text


class ImportRefused(RegistryError):
    """Some files were refused; nothing was written. `report.refused` lists every one."""

    def __init__(self, report: ImportReport, hint: str | None = None) -> None:
        self.report = report
        lines = [f"import refused, nothing was written: {len(report.refused)} file(s) to fix"]
        lines += [f"  {source}: {reason}" for source, reason in report.refused]
        if hint is not None:
            lines.append(hint)  # what else to do (registry.tenant_imports.refusal_hint: an export of several tenants)
        super().__init__("\n".join(lines))


def agent_paths(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(path.rglob("*.md"))
    if path.is_file() or path.is_symlink() or path.exists():
        return [path]  # whatever it is, reading it says what is wrong with it (registry.text_files)
    raise TextFileMissing(f"{path}: no such file or directory")


def _layer_key(agent: AgentFile) -> tuple[str | None, str | None, str]:
    return agent.tenant, agent.project, agent.slug


def check_files(paths: list[Path]) -> tuple[list[tuple[str, AgentFile]], ImportReport]:
    """Parse and gate every file; refusals go in the report, the rest come back to be applied."""
    report = ImportReport()
    accepted: list[tuple[str, AgentFile]] = []
    seen: dict[tuple, str] = {}
    for path in paths:
        source = str(path)
        try:
            agent = read_agent_file(path)
            # Gated here, once: what the gate returns is what apply_agent_files writes.
            instructions = validate_instructions(agent.instructions)
            agent = agent.model_copy(update=check_prompt_fields(agent.model_dump()) | {"instructions": instructions})
        except (AgentFileError, InstructionsRejected, TextFileError, TextFileMissing) as error:
            report.refused.append((source, str(error).removeprefix(f"{source}: ")))
            continue
        if _layer_key(agent) in seen:
            report.refused.append((source, f"same layer and slug as {seen[_layer_key(agent)]}"))
            continue
        seen[_layer_key(agent)] = source
        accepted.append((source, agent))
    return accepted, report


def apply_agent_files(registry: Registry, conn: psycopg.Connection,
                      files: list[tuple[str, AgentFile]]) -> ImportReport:
    """Create, update or leave each agent, inside the caller's transaction. The files come from
    check_files, which has put their texts through the gate: they are written as they are."""
    report = ImportReport()
    for source, agent in files:
        try:
            scope = registry.scope_in(conn, agent.tenant, agent.project)
        except RegistryError as error:
            report.refused.append((source, str(error)))
            continue
        with conn.cursor(row_factory=class_row(Agent)) as cur:
            existing = cur.execute(queries.agent_in_layer, (scope.tenant_id, scope.project_id, agent.slug)).fetchone()
        content = AgentContent(**agent.model_dump(exclude={"tenant", "project"}))
        shows_now = content.status == "published" and content.enabled
        showed = existing is not None and existing.status == "published" and existing.enabled
        if shows_now and not showed and (hidden := inherited(conn, scope.tenant_id, scope.project_id, agent.slug)):
            report.shadowing.append((source, f"hides the {hidden['layer']} {agent.slug!r} (#{hidden['agent_id']})"))
        if existing is None:
            registry.create_agent_in(conn, content, scope, gated=True)
            report.created.append(source)
            continue
        wanted = {k: getattr(content, k) for k in CONTENT_FIELDS}
        changed = {k: v for k, v in wanted.items() if getattr(existing, k) != v}
        if changed:
            registry.update_agent_in(conn, existing, scope, changed, expected_version=None, gated=True)
            report.updated.append(source)
        else:
            report.unchanged.append(source)
    if report.refused:
        raise ImportRefused(report)
    return report


def accepted_files(path: Path) -> list[tuple[str, AgentFile]]:
    """Every agent file under `path`, parsed and gated; ImportRefused lists all refusals."""
    files, report = check_files(agent_paths(path))
    if report.refused:
        raise ImportRefused(report)
    return files


def import_paths(path: Path) -> tuple[list[Path], list[Path]]:
    """The agent files and the scope files (scope.yaml) an import of `path` reads, each in name order."""
    if path.name == scope_files.FILE_NAME and not path.is_dir():
        return [], [path]
    agents = agent_paths(path) if path.suffix != ".yaml" else []
    return agents, sorted(path.rglob(scope_files.FILE_NAME)) if path.is_dir() else []


def import_agents(registry: Registry, path: Path) -> ImportReport:
    """Import a file or a directory of agent files, and the scope files (scope.yaml: a tenant's or
    project's dataset groups and glossary terms) beside them: all of them, or none (ImportRefused)."""
    return import_files(registry, *import_paths(path))


def import_files(registry: Registry, agent_file_paths: list[Path], scope_file_paths: list[Path],
                 tenant_rule: Callable[[str | int | None], str | None] | None = None) -> ImportReport:
    """Import these agent and scope files in one transaction: all of them, or none (ImportRefused).
    `tenant_rule`, given the tenant a file names, says why the file does not belong with the others
    (registry.tenant_imports: a tenant directory holds that tenant's files), or None."""
    files, report = check_files(agent_file_paths)
    scopes = []
    for scope_path in scope_file_paths:
        try:
            scopes.append((str(scope_path), scope_files.read_scope_file(scope_path)))
        except (scope_files.ScopeFileError, TextFileError, TextFileMissing) as error:
            report.refused.append((str(scope_path), str(error).removeprefix(f"{scope_path}: ")))
    if tenant_rule is not None:
        for source, named in [(source, agent.tenant) for source, agent in files] + \
                             [(source, scope.tenant) for source, scope in scopes]:
            if (reason := tenant_rule(named)) is not None:
                report.refused.append((source, reason))
    if report.refused:
        raise ImportRefused(report)
    with registry.transaction() as conn:
        # Names first: an agent imported with them is available from the start.
        names = 0
        for source, scope_file in scopes:
            try:
                names += scope_files.apply_scope_file(registry, conn, scope_file)
            except RegistryError as error:
                report.refused.append((source, str(error)))
        if report.refused:
            raise ImportRefused(report)
        report = apply_agent_files(registry, conn, files)
        report.names_added = names
        return report
