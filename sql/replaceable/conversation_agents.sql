-- One row per conversation; a filter on conversation_id reaches the primary key.

CREATE OR REPLACE VIEW conversation_agents WITH (security_invoker = true) AS
SELECT r.*
  FROM conversations c
 CROSS JOIN LATERAL resolve_conversation_agent(c.id) r;

COMMENT ON VIEW conversation_agents IS 'For every conversation: mode (pinned, none, default), the slug that applies, the agent it resolves to, and whether it is orphaned.';
