"""Shadow warnings: a published agent written in a layer hides the agent of that slug its scopes
inherit (docs/design.md, "Resolution rules", rule 2). Creating or publishing one says so, with the
impact preview of the other commands that change what a scope sees.

The preview is computed the way impact.sql computes a removal's, read the other way round: inside
a savepoint that is always rolled back, the agent is shown (inserted as a published stand-in, or
published and enabled), and preview_agent_removal lists every scope whose effective agent, default
or pins would change back without it. Nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg.rows import class_row, dict_row

from registry import queries
from registry.models import ImpactRow

OWNER = {"tenant": "the tenant's", "official": "the official"}


@dataclass(frozen=True)
class Shadowing:
    """What a published agent of `slug` in a layer hides: the inherited agent and where."""

    slug: str
    hidden_agent_id: int
    hidden_layer: str
    where: str  # "every project of acme (and acme tenant-wide)", "project acme/vendas"
    impact: tuple[ImpactRow, ...] = ()

    @property
    def warning(self) -> str:
        return f"this hides {OWNER[self.hidden_layer]} {self.slug!r} (#{self.hidden_agent_id}) in {self.where}"


def inherited(conn: psycopg.Connection, tenant_id: int | None, project_id: int | None, slug: str) -> dict | None:
    """The inherited agent a published row of `slug` in this layer would hide (None: nothing)."""
    if tenant_id is None:
        return None  # the official layer inherits nothing
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(queries.inherited_effective,
                           {"tenant_id": tenant_id, "project_id": project_id, "slug": slug}).fetchone()


def shadowing(conn: psycopg.Connection, tenant_id: int | None, tenant_slug: str | None, project_id: int | None,
              project_slug: str | None, slug: str, existing_agent_id: int | None = None) -> Shadowing | None:
    """What showing a published `slug` in this layer would hide, with the impact preview; None when
    it hides nothing. `existing_agent_id`: the layer's own row (a draft or disabled one) to publish."""
    hidden = inherited(conn, tenant_id, project_id, slug)
    if hidden is None:
        return None
    where = f"project {tenant_slug}/{project_slug}" if project_id is not None else \
        f"every project of {tenant_slug} (and {tenant_slug} tenant-wide)"
    return Shadowing(slug, hidden["agent_id"], hidden["layer"], where,
                     tuple(_impact_of_showing(conn, tenant_id, project_id, slug, existing_agent_id)))


class _Preview(Exception):
    def __init__(self, rows: list[ImpactRow]) -> None:
        self.rows = rows


def _impact_of_showing(conn: psycopg.Connection, tenant_id: int | None, project_id: int | None, slug: str,
                       existing_agent_id: int | None) -> list[ImpactRow]:
    try:
        with conn.transaction():  # a savepoint: always rolled back, by the exception below
            if existing_agent_id is None:
                agent_id = conn.execute(queries.placeholder_agent,
                                        {"tenant_id": tenant_id, "project_id": project_id, "slug": slug}).fetchone()[0]
            else:
                agent_id = existing_agent_id
                conn.execute(queries.show_agent_for_preview, (agent_id,))
            with conn.cursor(row_factory=class_row(ImpactRow)) as cur:
                removal = cur.execute(queries.preview_removal, (agent_id,)).fetchall()
            raise _Preview([_reversed(r, agent_id if existing_agent_id is None else None) for r in removal])
    except _Preview as preview:
        return preview.rows


def _reversed(row: ImpactRow, stand_in: int | None) -> ImpactRow:
    """A removal's row read as the showing's: before and after swap; the stand-in's id, which
    was rolled back, is not shown (None: "the new agent")."""
    def own(agent_id):
        return None if agent_id == stand_in else agent_id
    return row.model_copy(update={
        "before_slug": row.after_slug, "after_slug": row.before_slug,
        "before_agent_id": own(row.after_agent_id), "before_layer": row.after_layer,
        "after_agent_id": own(row.before_agent_id), "after_layer": row.before_layer,
        "orphaned": False})
