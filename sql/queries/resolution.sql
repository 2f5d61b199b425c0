-- What the registry resolves for a scope or a conversation: the functions of sql/replaceable/
-- do the resolving (docs/design rules), these statements call them.

-- name: resolve_agents
-- The effective catalog of a scope, one row per slug (the benchmark's (b)).
SELECT * FROM resolve_agents(%s, %s);

-- name: catalog
-- The effective catalog of a scope with what each agent's row adds: its tool profile, and how
-- many of the tenant's conversations adopted it. One round trip for the whole catalog.
SELECT r.tenant_id, r.project_id, r.slug, r.agent_id, r.layer, r.version, r.name, r.description,
       r.when_to_use, r.requires, r.instructions, r.available, r.missing, a.tool_profile,
       (SELECT count(*) FROM public.agent_adoptions d
         WHERE d.agent_id = r.agent_id AND d.tenant_id = %(tenant_id)s) AS uses
  FROM resolve_agents(%(tenant_id)s, %(project_id)s) r
  JOIN public.agents a ON a.id = r.agent_id
 ORDER BY r.slug;

-- name: resolve_default_agent
-- The effective default agent of a scope, and the layer it comes from (the benchmark's (c)).
SELECT * FROM resolve_default_agent(%s, %s);

-- name: resolve_conversation_agent
-- What a conversation runs with: its mode, slug, agent and whether that slug is orphaned or
-- unavailable (the benchmark's (a) and its peer check). The columns are named, so that columns
-- the function gains later are not shipped unless asked for. Registry.conversation reads
-- conversation_details instead: its trace attributes need the layer and the versions.
SELECT conversation_id, tenant_id, project_id, mode, slug, agent_id, orphaned, unavailable, missing
  FROM resolve_conversation_agent(%s);

-- name: conversation_context
-- What a conversation's prompt is built from, in one statement and so one snapshot: what it
-- runs with, the agent itself when one applies (a_*; none when it is orphaned or unavailable), its tenant (t_*) and its project with the
-- project's stored instruction file (p_*).
SELECT c.*, a.tenant_id AS a_tenant_id, a.project_id AS a_project_id, a.slug AS a_slug,
       a.agent_id AS a_agent_id, a.layer AS a_layer, a.version AS a_version, a.name AS a_name,
       a.description AS a_description, a.when_to_use AS a_when_to_use, a.requires AS a_requires,
       a.instructions AS a_instructions, a.available AS a_available, a.missing AS a_missing,
       t.slug AS t_slug, t.name AS t_name,
       p.slug AS p_slug, p.name AS p_name, p.instruction_file AS p_instruction_file
  FROM resolve_conversation_agent(%s) c
  LEFT JOIN LATERAL resolve_agent(c.tenant_id, c.project_id, c.slug) a ON c.agent_id IS NOT NULL
  LEFT JOIN public.tenants t ON t.id = c.tenant_id
  LEFT JOIN public.projects p ON p.tenant_id = c.tenant_id AND p.id = c.project_id;

-- name: conversation_details
-- What a conversation runs with (resolve_conversation_agent), with the agent's layer and
-- version now and the version and prompt fingerprint it was adopted with, so a version drift
-- ("adopted v3, now v4") can be told, and the trace attributes filled: Registry.conversation
-- (and so the cache and the CLI) reads this, two primary-key probes more than the bare resolution.
SELECT c.*, a.layer, a.version AS current_version, d.version AS adopted_version,
       d.fingerprint AS adopted_fingerprint
  FROM resolve_conversation_agent(%s) c
  LEFT JOIN public.agents a ON a.id = c.agent_id
  LEFT JOIN public.agent_adoptions d
    ON d.conversation_id = c.conversation_id AND d.agent_id = c.agent_id AND d.tenant_id = c.tenant_id;
