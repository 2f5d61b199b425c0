-- Agents: written through the API (the gate has passed their texts first), read by layer or id,
-- their history, and the list an export writes. Every statement returns the agents row's columns
-- in the same order, the fields of registry.models.Agent.

-- name: insert_agent
-- A new agent in a layer (tenant_id and project_id NULL: official).
INSERT INTO public.agents (tenant_id, project_id, slug, name, description, when_to_use, requires,
                           instructions, status, enabled, note, created_by, tool_profile)
VALUES (%(tenant_id)s, %(project_id)s, %(slug)s, %(name)s, %(description)s, %(when_to_use)s,
        %(requires)s, %(instructions)s, %(status)s, %(enabled)s, %(note)s, %(created_by)s, %(tool_profile)s)
RETURNING id, tenant_id, project_id, layer, slug, name, description, when_to_use, requires,
          instructions, status, version, enabled, note, uses, created_by, created_at, updated_at,
          tool_profile;

-- name: agent_in_layer
-- An agent by its layer (tenant and project ids, NULL for none) and slug.
SELECT id, tenant_id, project_id, layer, slug, name, description, when_to_use, requires,
       instructions, status, version, enabled, note, uses, created_by, created_at, updated_at,
       tool_profile
  FROM public.agents
 WHERE scope_tenant_id = COALESCE(%s, 0) AND scope_project_id = COALESCE(%s, 0) AND slug = %s;

-- name: agent_with_scope
-- An agent by id with its layer's tenant and project, in one round trip (the write hot path).
SELECT a.id, a.tenant_id, a.project_id, a.layer, a.slug, a.name, a.description, a.when_to_use,
       a.requires, a.instructions, a.status, a.version, a.enabled, a.note, a.uses, a.created_by,
       a.created_at, a.updated_at, a.tool_profile,
       t.slug AS t_slug, t.name AS t_name, p.slug AS p_slug, p.name AS p_name
  FROM public.agents a
  LEFT JOIN public.tenants t ON t.id = a.tenant_id
  LEFT JOIN public.projects p ON p.id = a.project_id
 WHERE a.id = %s;

-- name: update_agent
-- Change an agent if it is still at the version the caller read (%(_version)s NULL: any version).
-- Composed: {assignments} is the list of `column = %(column)s` for the fields given, built with
-- psycopg.sql.Identifier; no row back means stale, deleted meanwhile, or refused by row-level
-- security (registry.api.Registry._stale tells which).
UPDATE public.agents SET {assignments}
 WHERE id = %(_id)s AND version = COALESCE(%(_version)s, version)
RETURNING id, tenant_id, project_id, layer, slug, name, description, when_to_use, requires,
          instructions, status, version, enabled, note, uses, created_by, created_at, updated_at,
          tool_profile;

-- name: agent_version
-- An agent's current version (no row: it is gone).
SELECT version FROM public.agents WHERE id = %s;

-- name: delete_agent
-- Delete an agent if it is still at the version given (NULL: any version).
SELECT public.delete_agent(%s, %s) AS deleted;

-- name: agent_history
-- Every version of an agent's content, oldest first; the last row is the current one. The
-- versions are read by their agent's scope_tenant_id and id, agent_versions_pkey's first columns
-- (revision 0012): staff, whom no read policy narrows to a tenant, keep the key's index too.
SELECT v.agent_id, v.version, v.name, v.description, v.when_to_use, v.requires, v.instructions,
       false AS current, v.replaced_by, v.replaced_at
  FROM public.agents a
  JOIN public.agent_versions v ON v.scope_tenant_id = a.scope_tenant_id AND v.agent_id = a.id
 WHERE a.id = %(id)s
UNION ALL
SELECT id, version, name, description, when_to_use, requires, instructions, true, NULL, NULL
  FROM public.agents WHERE id = %(id)s
 ORDER BY version;

-- name: agent_tool_profile
-- The tool profile stored with an agent (NULL: it narrows nothing).
SELECT tool_profile FROM public.agents WHERE id = %s;

-- name: agents_to_export
-- The agents an export writes, with their layer's slugs: all of them, or the official ones and
-- one tenant's (%(tenant)s), in a stable order.
SELECT a.id, t.slug AS tenant, p.slug AS project
  FROM public.agents a
  LEFT JOIN public.tenants t ON t.id = a.tenant_id
  LEFT JOIN public.projects p ON p.id = a.project_id
 WHERE %(tenant)s::bigint IS NULL OR a.tenant_id = %(tenant)s OR a.tenant_id IS NULL
 ORDER BY a.scope_tenant_id, a.scope_project_id, a.slug;
