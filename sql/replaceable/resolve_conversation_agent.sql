-- The agent a conversation runs with (docs/design.md, "Resolution rules", rule 5).
--
--   agent_slug NULL  -> mode 'default': the scope's effective default, as it is now
--   agent_slug ''    -> mode 'none':    explicitly no agent
--   agent_slug slug  -> mode 'pinned':  that slug resolved in the conversation's scope
--
-- slug is the slug that applies (NULL when none does); an applying slug that resolves to
-- no agent is orphaned, and the conversation runs without an agent. The rules are written once,
-- in the conversation_agents view; this function is that view for one conversation (inlined,
-- so the filter reaches the primary key).

CREATE OR REPLACE FUNCTION resolve_conversation_agent(p_conversation_id bigint)
RETURNS TABLE (
    conversation_id bigint,
    tenant_id       bigint,
    project_id      bigint,
    mode            text,
    slug            text,
    agent_id        bigint,
    orphaned        boolean,
    unavailable     boolean,
    missing         jsonb
)
LANGUAGE sql STABLE
AS $$
SELECT v.conversation_id, v.tenant_id, v.project_id, v.mode, v.slug, v.agent_id, v.orphaned,
       v.unavailable, v.missing
  FROM public.conversation_agents v
 WHERE v.conversation_id = p_conversation_id
$$;

COMMENT ON FUNCTION resolve_conversation_agent(bigint) IS 'The agent a conversation runs with: mode pinned/none/default, the slug that applies, the agent it resolves to, whether it is orphaned, and whether its agent is unavailable (then agent_id is NULL) and what is missing.';
