-- The winner for one slug in a scope, and the rules for it in one place: the published and
-- enabled rows of the scope's three layers, the most specific first, unless the project opted
-- out of it (then nothing: what lies beneath does not resurface). No check that the scope
-- exists — resolve_agent adds that for callers who name a scope; a conversation's foreign keys
-- already guarantee its own, so the hot path (conversation_agents) calls this directly.

CREATE OR REPLACE FUNCTION winning_agent(p_tenant_id bigint, p_project_id bigint, p_slug text)
RETURNS SETOF agents
LANGUAGE sql STABLE
AS $$
SELECT w.*
  FROM (SELECT a.*
          FROM agents a
         WHERE a.slug = p_slug
           AND a.status = 'published'
           AND a.enabled
           AND a.scope_tenant_id IN (0, p_tenant_id)
           AND a.scope_project_id IN (0, COALESCE(p_project_id, 0))
         ORDER BY a.scope_project_id DESC, a.scope_tenant_id DESC
         LIMIT 1) w
 WHERE NOT EXISTS (SELECT 1 FROM agent_optouts o
                    WHERE o.project_id = p_project_id AND o.agent_id = w.id)
$$;

COMMENT ON FUNCTION winning_agent(bigint, bigint, text) IS 'The effective agents row of one slug in a scope, assuming the scope exists (0 or 1 row). Callers naming a scope use resolve_agent.';
