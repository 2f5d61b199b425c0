"""Directory-scoped conventions as registry data (revision 0009): write, read, resolve for a
directory. Layered like agents — official (no tenant), tenant, project — and addressed the same
way; which ones apply in a directory is registry.harness.scoped_conventions' business.

    from registry.conventions import add_convention, resolve_for_directory
    add_convention(reg, "Handlers return typed errors.", tenant="acme", project="financeiro",
                   directory="src/api", language="python")
    resolved = resolve_for_directory(reg, tenant_id, project_id, "src/api/handlers", "python",
                                     limit_tokens=1000)

A convention's text passes the instruction gate on write (and is capped at 2,000 characters
after NFC), and again when a prompt is assembled: a text edited in SQL that the gate refuses is
left out and reported (`ResolvedConventions.refused`), never sent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from psycopg.rows import dict_row

from registry import limits, queries
from registry.api import Ref, Registry
from registry.constraint_errors import mapped_errors
from registry.errors import InvalidInput, NotAllowed, NotFound, StaleVersion
from registry.gate import InstructionsRejected, validate_instructions
from registry.harness.scoped_conventions import (
    Convention,
    ResolvedConventions,
    directory_levels,
    normalise_directory,
    normalise_language,
    resolve_conventions,
)
from registry.refs import check_id
from registry.tokens import Tokenizer


@dataclass(frozen=True)
class StoredConvention:
    """A convention row: its layer, scope and text; `tenant`/`project` are the layer's slugs."""

    id: int
    layer: str
    directory: str | None
    language: str | None
    body: str
    version: int
    tenant: str | None = None
    project: str | None = None

    def as_convention(self) -> Convention:
        return Convention(self.id, self.layer, self.directory, self.language, self.body)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ConventionVersion:
    version: int
    body: str
    replaced_by: str
    replaced_at: datetime


def check_convention_text(text: str) -> str:
    """The text as it is stored: through the instruction gate (LF, NFC), at most 2,000 characters."""
    stored = validate_instructions(text)
    if len(stored) > limits.CONVENTION:
        raise InvalidInput(f"a convention is at most {limits.CONVENTION:,} characters after NFC, this one has "
                           f"{len(stored):,}: split it into several conventions")
    return stored


def add_convention(registry: Registry, text: str, *, tenant: Ref | None = None, project: Ref | None = None,
                   directory: str | None = "", language: str | None = None) -> StoredConvention:
    """A new convention in the layer of (tenant, project). `directory` is relative to the project
    root ('' the root, the default); None with a `language` makes it language-level."""
    body = check_convention_text(text)
    language = normalise_language(language)
    directory = None if directory is None else normalise_directory(directory)
    if directory is None and language is None:
        raise InvalidInput("a convention needs a directory ('' for the project root) or a language: "
                           "without either it would apply nowhere")
    with registry.transaction() as conn:
        scope = registry.scope_in(conn, tenant, project)
        params = {"tenant_id": scope.tenant_id, "project_id": scope.project_id, "directory": directory,
                  "language": language, "body": body, "created_by": registry.actor}
        with mapped_errors(where=scope.where, tenant=tenant, project=project), conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(queries.insert_convention, params).fetchone()
    return StoredConvention(**row, tenant=scope.tenant.slug if scope.tenant else None,
                            project=scope.project.slug if scope.project else None)


def scope_conventions(registry: Registry, tenant: Ref, project: Ref | None = None) -> list[StoredConvention]:
    """Every convention the scope sees (official, its tenant's, its project's), oldest first."""
    with registry.transaction() as conn:
        scope = registry.scope_in(conn, tenant, project)
        return _rows(conn, scope.tenant_id, scope.project_id, None)


def _rows(conn, tenant_id: int, project_id: int | None, levels: tuple[str, ...] | None) -> list[StoredConvention]:
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(queries.conventions_of_scope, {"tenant_id": tenant_id, "project_id": project_id,
                                                          "levels": list(levels) if levels is not None else None})
        return [StoredConvention(**row) for row in rows.fetchall()]


def resolve_for_directory(registry: Registry, tenant_id: int, project_id: int | None, directory: str | None,
                          language: str | None, *, limit_tokens: int,
                          tokenizer: Tokenizer | None = None) -> ResolvedConventions:
    """The conventions that apply in `directory` for `language` (nearest first, deduplicated, cut
    to `limit_tokens`); each passes the gate again, and a refused one is left out and reported."""
    levels = directory_levels(normalise_directory(directory))
    with registry.transaction() as conn:
        rows = _rows(conn, tenant_id, project_id, levels)
    passing, refused = [], []
    for row in rows:
        try:
            passing.append(dataclasses.replace(row.as_convention(), text=validate_instructions(row.body)))
        except InstructionsRejected:
            refused.append(row.as_convention())
    resolved = resolve_conventions(passing, directory, language, limit_tokens=limit_tokens,
                                   tokenizer=tokenizer or registry.tokenizer)
    return dataclasses.replace(resolved, refused=tuple(refused))


def convention(registry: Registry, convention_id: int) -> StoredConvention:
    with registry.transaction() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(queries.convention_by_id, (check_id(convention_id, "convention"),)).fetchone()
    if row is None:
        raise NotFound(f"no convention {convention_id}: `registry conventions list` shows the ids")
    return StoredConvention(**row)


def convention_history(registry: Registry, convention_id: int) -> list[ConventionVersion]:
    """The texts a convention had before its current one, oldest first."""
    convention(registry, convention_id)  # NotFound for an id this tenant cannot see
    with registry.transaction() as conn, conn.cursor(row_factory=dict_row) as cur:
        return [ConventionVersion(**row) for row in cur.execute(queries.convention_history, (convention_id,))]


def update_convention(registry: Registry, convention_id: int, text: str,
                      expected_version: int | None = None) -> StoredConvention:
    """A convention's new text (through the gate); the old one is kept in its history. Refused
    with StaleVersion if it is no longer at `expected_version`."""
    body = check_convention_text(text)
    current = convention(registry, convention_id)
    with registry.transaction() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(queries.update_convention, {"id": convention_id, "body": body,
                                                      "version": expected_version}).fetchone()
    if row is not None:
        return StoredConvention(**row, tenant=current.tenant, project=current.project)
    now = convention(registry, convention_id)
    if expected_version is not None and now.version != expected_version:
        raise StaleVersion(f"convention {convention_id} is at version {now.version}, not {expected_version}: "
                           "re-read it and apply your change again", current_version=now.version)
    raise NotAllowed(f"convention {convention_id} of the {now.layer} layer cannot be changed from here: "
                       "change your own layer's conventions instead")


def delete_convention(registry: Registry, convention_id: int) -> None:
    current = convention(registry, convention_id)
    with registry.transaction() as conn:
        if conn.execute(queries.delete_convention, (convention_id,)).fetchone() is None:
            raise NotAllowed(f"convention {convention_id} of the {current.layer} layer cannot be deleted from here")
