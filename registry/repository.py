"""Reading what the registry resolves: plain functions over a psycopg connection.

The SQL is literal and module-level; rows come back as the frozen models of
registry.models. Tenants and projects are addressed by id or by slug.
"""

from __future__ import annotations

import psycopg
from psycopg.rows import class_row, dict_row

from registry.errors import NotFound
from registry.models import ConversationAgent, EffectiveAgent, EffectiveDefault, Project, Tenant
from registry.refs import check_id, parse_ref

TENANT_BY_ID = "SELECT id, slug, name FROM public.tenants WHERE id = %s"
TENANT_BY_SLUG = "SELECT id, slug, name FROM public.tenants WHERE slug = %s"
PROJECT_BY_ID = "SELECT id, tenant_id, slug, name FROM public.projects WHERE tenant_id = %s AND id = %s"
PROJECT_BY_SLUG = "SELECT id, tenant_id, slug, name FROM public.projects WHERE tenant_id = %s AND slug = %s"
RESOLVE_AGENTS = "SELECT * FROM resolve_agents(%s, %s)"
RESOLVE_DEFAULT_AGENT = "SELECT * FROM resolve_default_agent(%s, %s)"
RESOLVE_CONVERSATION_AGENT = "SELECT * FROM resolve_conversation_agent(%s)"
CONVERSATION_WITH_AGENT = """
SELECT c.*, a.tenant_id AS a_tenant_id, a.project_id AS a_project_id, a.slug AS a_slug,
       a.agent_id AS a_agent_id, a.layer AS a_layer, a.version AS a_version, a.name AS a_name,
       a.description AS a_description, a.when_to_use AS a_when_to_use, a.requires AS a_requires,
       a.instructions AS a_instructions
  FROM resolve_conversation_agent(%s) c
  LEFT JOIN LATERAL resolve_agent(c.tenant_id, c.project_id, c.slug) a ON true
"""


def find_tenant(conn: psycopg.Connection, reference: str | int) -> Tenant:
    value = parse_ref(reference, "tenant")
    query = TENANT_BY_ID if isinstance(value, int) else TENANT_BY_SLUG
    with conn.cursor(row_factory=class_row(Tenant)) as cur:
        tenant = cur.execute(query, (value,)).fetchone()
    if tenant is None:
        raise NotFound(f"no tenant {reference!r}: give an existing tenant's slug or id")
    return tenant


def find_project(conn: psycopg.Connection, tenant: Tenant, reference: str | int) -> Project:
    value = parse_ref(reference, "project")
    query = PROJECT_BY_ID if isinstance(value, int) else PROJECT_BY_SLUG
    with conn.cursor(row_factory=class_row(Project)) as cur:
        project = cur.execute(query, (tenant.id, value)).fetchone()
    if project is None:
        raise NotFound(f"tenant {tenant.slug!r} has no project {reference!r}: give one of its projects' slug or id")
    return project


def effective_agents(conn: psycopg.Connection, tenant_id: int, project_id: int | None = None) -> list[EffectiveAgent]:
    with conn.cursor(row_factory=class_row(EffectiveAgent)) as cur:
        return cur.execute(RESOLVE_AGENTS, (tenant_id, project_id)).fetchall()


def effective_default(conn: psycopg.Connection, tenant_id: int, project_id: int | None = None) -> EffectiveDefault:
    with conn.cursor(row_factory=class_row(EffectiveDefault)) as cur:
        row = cur.execute(RESOLVE_DEFAULT_AGENT, (tenant_id, project_id)).fetchone()
    if row is None:
        raise NotFound(f"no scope tenant={tenant_id} project={project_id}")
    return row


def conversation_agent(conn: psycopg.Connection, conversation_id: int) -> ConversationAgent:
    with conn.cursor(row_factory=class_row(ConversationAgent)) as cur:
        row = cur.execute(RESOLVE_CONVERSATION_AGENT, (check_id(conversation_id, "conversation"),)).fetchone()
    if row is None:
        raise NotFound(f"no conversation {conversation_id}: give an existing conversation's id")
    return row


def conversation_effective_agent(conn: psycopg.Connection,
                                 conversation_id: int) -> tuple[ConversationAgent, EffectiveAgent | None]:
    """What a conversation runs with, and the agent itself when one applies: one statement, so
    both come from the same snapshot."""
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(CONVERSATION_WITH_AGENT, (check_id(conversation_id, "conversation"),)).fetchone()
    if row is None:
        raise NotFound(f"no conversation {conversation_id}: give an existing conversation's id")
    resolved = ConversationAgent.model_validate({k: row[k] for k in ConversationAgent.model_fields})
    if row["a_agent_id"] is None:
        return resolved, None
    agent = EffectiveAgent.model_validate({k: row[f"a_{k}"] for k in EffectiveAgent.model_fields})
    return resolved, agent
