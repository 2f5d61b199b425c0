-- What the registry resolves for a scope or a conversation: the functions of sql/replaceable/
-- do the resolving (docs/design rules), these statements call them.

-- name: resolve_agents
-- The effective catalog of a scope, one row per slug (also the benchmark's (b)).
SELECT * FROM resolve_agents(%s, %s);

-- name: uses_in_tenant
-- How many of a tenant's conversations adopted each of the agents given.
SELECT agent_id, count(*) FROM public.agent_adoptions
 WHERE tenant_id = %s AND agent_id = ANY(%s) GROUP BY agent_id;

-- name: tool_profiles
-- The tool profiles stored with the agents given (agents without one are left out).
SELECT id, tool_profile FROM public.agents WHERE id = ANY(%s) AND tool_profile IS NOT NULL;

-- name: resolve_default_agent
-- The effective default agent of a scope, and the layer it comes from (the benchmark's (c)).
SELECT * FROM resolve_default_agent(%s, %s);

-- name: resolve_conversation_agent
-- What a conversation runs with: its mode, slug, agent and whether that slug is orphaned
-- (the benchmark's (a)).
SELECT * FROM resolve_conversation_agent(%s);

-- name: conversation_with_agent
-- What a conversation runs with, and the agent itself when one applies (a_*): one statement, so
-- both come from the same snapshot.
SELECT c.*, a.tenant_id AS a_tenant_id, a.project_id AS a_project_id, a.slug AS a_slug,
       a.agent_id AS a_agent_id, a.layer AS a_layer, a.version AS a_version, a.name AS a_name,
       a.description AS a_description, a.when_to_use AS a_when_to_use, a.requires AS a_requires,
       a.instructions AS a_instructions
  FROM resolve_conversation_agent(%s) c
  LEFT JOIN LATERAL resolve_agent(c.tenant_id, c.project_id, c.slug) a ON true;
