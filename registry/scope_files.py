"""Scope files: what a tenant or project has (dataset groups, glossary terms) as YAML beside its
agent files, so `registry export` and `registry import` carry it too.

    # acme/scope.yaml (a tenant's) or acme/financeiro/scope.yaml (a project's additions)
    tenant: acme
    project: financeiro
    groups: [financeiro, extratos-bancarios]
    terms: [saldo]

Importing adds the names a layer lacks and leaves the others: a project's names only ever add
to its tenant's, and an import never removes what a scope has (`registry groups|terms remove` does).
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import yaml
from pydantic import Field, ValidationError

from registry import queries, vocabulary, yaml_files
from registry.errors import InvalidInput, RegistryError
from registry.models import Frozen, describe_validation_error
from registry.text_files import read_text_file

FILE_NAME = "scope.yaml"


class ScopeFileError(RegistryError):
    """A scope file that cannot be read: names the file and what to fix."""


class ScopeFile(Frozen):
    tenant: str | int
    project: str | int | None = None
    groups: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list)


def read_scope_file(path: Path) -> ScopeFile:
    source = str(path)
    try:
        data = yaml.safe_load(read_text_file(path))
    except yaml.YAMLError as error:
        raise ScopeFileError(f"{source}: not valid YAML: {error}") from error
    if not isinstance(data, dict):
        raise ScopeFileError(f"{source}: must be a mapping with tenant, project (optional), groups and terms")
    try:
        scope = ScopeFile.model_validate(data)
        for kind, names in (("group", scope.groups), ("term", scope.terms)):
            for name in names:
                vocabulary.check_name(kind, name)
    except ValidationError as error:
        raise ScopeFileError(f"{source}: {describe_validation_error(error, 'file')}") from error
    except InvalidInput as error:
        raise ScopeFileError(f"{source}: {error}") from error
    return scope


def render_scope_file(tenant: str, project: str | None, groups: list[str], terms: list[str]) -> str:
    """Byte-stable: keys in a fixed order, names as the database sorts them."""
    data: dict[str, object] = {"tenant": tenant}
    if project is not None:
        data["project"] = project
    data |= {"groups": groups, "terms": terms}
    return yaml_files.dump(data)


def apply_scope_file(registry, conn: psycopg.Connection, scope_file: ScopeFile) -> int:
    """Add the file's names to its layer, inside the caller's transaction; returns how many were new."""
    scope = registry.scope_in(conn, scope_file.tenant, scope_file.project)
    return sum(len(vocabulary.add(conn, kind, scope.tenant_id, scope.project_id, names))
               for kind, names in (("group", scope_file.groups), ("term", scope_file.terms)))


def export_scope_files(conn: psycopg.Connection, directory: Path,
                       tenant_id: int | None) -> list[tuple[Path, str, str | None]]:
    """<tenant>/scope.yaml and <tenant>/<project>/scope.yaml for every layer that has names: each file
    written, with its layer's tenant and project slugs."""
    layers: dict[tuple[str, str | None], dict[str, list[str]]] = {}
    for kind, tenant_slug, project_slug, name in conn.execute(queries.scope_names_to_export, {"tenant": tenant_id}):
        layers.setdefault((tenant_slug, project_slug), {"group": [], "term": []})[kind].append(name)
    written = []
    for (tenant_slug, project_slug), names in layers.items():
        folder = directory.joinpath(*(p for p in (tenant_slug, project_slug) if p))
        target = folder / FILE_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            target.write_text(render_scope_file(tenant_slug, project_slug, names["group"], names["term"]),
                              encoding="utf-8")
        except OSError as error:
            raise InvalidInput(f"cannot write {target}: {error.strerror or error}") from error
        written.append((target, tenant_slug, project_slug))
    return written
