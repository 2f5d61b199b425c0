"""Reading what the registry resolves: plain functions over a psycopg connection.

The SQL is named, in sql/queries/ (registry.queries); rows come back as the frozen models
of registry.models. Tenants and projects are addressed by id or by slug.
"""

from __future__ import annotations

import psycopg
from psycopg.rows import class_row, dict_row

from registry import queries
from registry.errors import NotFound
from registry.models import ConversationAgent, EffectiveAgent, EffectiveDefault, Project, Tenant
from registry.refs import check_id, parse_ref


def find_tenant(conn: psycopg.Connection, reference: str | int) -> Tenant:
    value = parse_ref(reference, "tenant")
    query = queries.tenant_by_id if isinstance(value, int) else queries.tenant_by_slug
    with conn.cursor(row_factory=class_row(Tenant)) as cur:
        tenant = cur.execute(query, (value,)).fetchone()
    if tenant is None:
        raise NotFound(f"no tenant {reference!r}: give an existing tenant's slug or id")
    return tenant


def find_project(conn: psycopg.Connection, tenant: Tenant, reference: str | int) -> Project:
    value = parse_ref(reference, "project")
    query = queries.project_by_id if isinstance(value, int) else queries.project_by_slug
    with conn.cursor(row_factory=class_row(Project)) as cur:
        project = cur.execute(query, (tenant.id, value)).fetchone()
    if project is None:
        raise NotFound(f"tenant {tenant.slug!r} has no project {reference!r}: give one of its projects' slug or id")
    return project


def effective_default(conn: psycopg.Connection, tenant_id: int, project_id: int | None = None) -> EffectiveDefault:
    with conn.cursor(row_factory=class_row(EffectiveDefault)) as cur:
        row = cur.execute(queries.resolve_default_agent, (tenant_id, project_id)).fetchone()
    if row is None:
        raise NotFound(f"no scope tenant={tenant_id} project={project_id}")
    return row


def hot_path_prepare(conn: psycopg.Connection) -> bool | None:
    """Prepare the per-question statements at their first execution (psycopg waits for the 5th):
    a short-lived connection then plans them once, not five times. Never behind a pooler in
    transaction mode (prepare_threshold None, registry.db.connection_options)."""
    return None if conn.prepare_threshold is None else True


def conversation_agent(conn: psycopg.Connection, conversation_id: int) -> ConversationAgent:
    with conn.cursor(row_factory=class_row(ConversationAgent)) as cur:
        row = cur.execute(queries.conversation_details, (check_id(conversation_id, "conversation"),),
                          prepare=hot_path_prepare(conn)).fetchone()
    if row is None:
        raise NotFound(f"no conversation {conversation_id}: give an existing conversation's id")
    return row


def conversation_effective_agent(conn: psycopg.Connection,
                                 conversation_id: int) -> tuple[ConversationAgent, EffectiveAgent | None]:
    """What a conversation runs with, and the agent itself when one applies: one statement, so
    both come from the same snapshot."""
    return _conversation_and_agent(_conversation_context_row(conn, conversation_id))


def conversation_context(conn: psycopg.Connection, conversation_id: int) -> tuple[
        ConversationAgent, EffectiveAgent | None, Tenant, Project | None, str | None]:
    """What a conversation runs with, the agent (None: none applies), its tenant, its project and
    the project's stored instruction file: one statement, so all from the same snapshot."""
    row = _conversation_context_row(conn, conversation_id)
    resolved, agent = _conversation_and_agent(row)
    if row["t_slug"] is None:
        raise NotFound(f"no tenant {row['tenant_id']!r}: give an existing tenant's slug or id")
    tenant = Tenant(id=row["tenant_id"], slug=row["t_slug"], name=row["t_name"])
    if row["project_id"] is None:
        return resolved, agent, tenant, None, None
    if row["p_slug"] is None:
        raise NotFound(f"tenant {tenant.slug!r} has no project {row['project_id']!r}: "
                       "give one of its projects' slug or id")
    project = Project(id=row["project_id"], tenant_id=row["tenant_id"], slug=row["p_slug"], name=row["p_name"])
    return resolved, agent, tenant, project, row["p_instruction_file"]


def _conversation_context_row(conn: psycopg.Connection, conversation_id: int) -> dict:
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(queries.conversation_context, (check_id(conversation_id, "conversation"),),
                          prepare=hot_path_prepare(conn)).fetchone()
    if row is None:
        raise NotFound(f"no conversation {conversation_id}: give an existing conversation's id")
    return row


def _conversation_and_agent(row: dict) -> tuple[ConversationAgent, EffectiveAgent | None]:
    # The adoption's version is not read on this path (one probe less per prompt): the agent's
    # own layer and version are, for the prompt's trace attributes.
    fields = {k: row[k] for k in ConversationAgent.model_fields if k in row}
    if row["a_agent_id"] is None:
        return ConversationAgent.model_validate(fields), None
    resolved = ConversationAgent.model_validate(fields | {"layer": row["a_layer"], "current_version": row["a_version"]})
    return resolved, EffectiveAgent.model_validate({k: row[f"a_{k}"] for k in EffectiveAgent.model_fields})
