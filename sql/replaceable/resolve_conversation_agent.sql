-- The agent a conversation runs with (DESIGN §4, rule 5).
--
--   agent_slug NULL  -> mode 'default': the scope's effective default, as it is now
--   agent_slug ''    -> mode 'none':    explicitly no agent
--   agent_slug slug  -> mode 'pinned':  that slug resolved in the conversation's scope
--
-- slug is the slug that applies (NULL when none does); an applying slug that resolves to
-- no agent is orphaned, and the conversation runs without an agent.

CREATE OR REPLACE FUNCTION resolve_conversation_agent(p_conversation_id bigint)
RETURNS TABLE (
    conversation_id bigint,
    tenant_id       bigint,
    project_id      bigint,
    mode            text,
    slug            text,
    agent_id        bigint,
    orphaned        boolean
)
LANGUAGE sql STABLE
AS $$
SELECT c.id, c.tenant_id, c.project_id,
       CASE WHEN c.agent_slug IS NULL THEN 'default'
            WHEN c.agent_slug = '' THEN 'none'
            ELSE 'pinned' END,
       s.slug,
       e.agent_id,
       s.slug IS NOT NULL AND e.agent_id IS NULL
  FROM conversations c
  LEFT JOIN LATERAL configured_default_agent(c.tenant_id, c.project_id) d ON c.agent_slug IS NULL
 CROSS JOIN LATERAL (
        SELECT NULLIF(COALESCE(c.agent_slug, d.default_agent), '') AS slug) s
  LEFT JOIN LATERAL resolve_agent(c.tenant_id, c.project_id, s.slug) e ON true
 WHERE c.id = p_conversation_id
$$;

COMMENT ON FUNCTION resolve_conversation_agent(bigint) IS 'The agent a conversation runs with: mode pinned/none/default, the slug that applies, the agent it resolves to, and whether it is orphaned.';
