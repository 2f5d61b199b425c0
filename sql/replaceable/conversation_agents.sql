-- The agent each conversation runs with (docs/design.md, "Resolution rules", rule 5), one row per conversation:
--
--   agent_slug NULL  -> mode 'default': the scope's effective default, as it is now
--   agent_slug ''    -> mode 'none':    explicitly no agent
--   agent_slug slug  -> mode 'pinned':  that slug resolved in the conversation's scope
--
-- Written over conversations directly, so a filter on conversation_id, tenant_id or project_id
-- reaches an index. resolve_conversation_agent(id) is this view for one conversation. It calls
-- winning_agent_id, not resolve_agent: a conversation's scope exists by its foreign keys, and
-- the two index lookups that would check it again would run on every question. Only a
-- conversation that follows the default reads the defaults: the condition sits inside a fenced
-- subquery (OFFSET 0), where it gates the lookup instead of filtering its result afterwards.
-- The slug is fenced too: under row-level security PostgreSQL evaluates a condition holding a
-- function it does not know to be leakproof (COALESCE, NULLIF) only after the policy, so an
-- unfenced slug expression would drop out of the probes' index condition and each probe
-- would read its whole layer (docs/performance.md, "Under row-level security").
--
-- Availability (rule 7): a winner whose requirements the scope lacks stays the winner, and the
-- conversation runs without an agent (agent_id NULL) and says so: unavailable, and what is
-- missing — like an orphan, never an error, and never the row beneath in its place. Reading
-- the winner's requires is one primary-key probe, made only when there is a winner; the
-- availability lookups run only when it requires something, behind agent_missing_one, so
-- this plan does not carry them (sql/replaceable/agent_missing_one.sql). The tenant and project slugs are
-- for consoles; the function below does not read them, and the planner drops their joins.

CREATE OR REPLACE VIEW conversation_agents WITH (security_invoker = true) AS
SELECT c.id AS conversation_id, c.tenant_id, c.project_id,
       CASE WHEN c.agent_slug IS NULL THEN 'default'
            WHEN c.agent_slug = '' THEN 'none'
            ELSE 'pinned' END AS mode,
       s.slug,
       CASE WHEN m.missing = '{"groups": [], "terms": []}'::jsonb THEN e.agent_id END AS agent_id,
       s.slug IS NOT NULL AND e.agent_id IS NULL AS orphaned,
       COALESCE(m.missing <> '{"groups": [], "terms": []}'::jsonb, false) AS unavailable,
       COALESCE(m.missing, '{"groups": [], "terms": []}'::jsonb) AS missing,
       t.slug AS tenant_slug, p.slug AS project_slug
  FROM public.conversations c
  LEFT JOIN LATERAL (SELECT cd.default_agent
                       FROM public.configured_default_agent(c.tenant_id, c.project_id) cd
                      WHERE c.agent_slug IS NULL
                     OFFSET 0) d ON true
 CROSS JOIN LATERAL (SELECT NULLIF(COALESCE(c.agent_slug, d.default_agent), '') AS slug OFFSET 0) s
  LEFT JOIN LATERAL public.winning_agent_id(c.tenant_id, c.project_id, s.slug) e ON true
  -- The key test agent_missing starts with (requires_nothing), here, so an agent that requires nothing
  -- costs no call; fenced (OFFSET 0) so the call is made once, not once per column reading it.
  LEFT JOIN LATERAL (SELECT CASE
                              WHEN public.requires_nothing(a.requires)
                              THEN '{"groups": [], "terms": []}'::jsonb
                              ELSE public.agent_missing_one(c.tenant_id, c.project_id, a.requires)
                            END AS missing
                       FROM public.agents a
                      WHERE a.id = e.agent_id
                     OFFSET 0) m ON true
  LEFT JOIN public.tenants t ON t.id = c.tenant_id
  LEFT JOIN public.projects p ON p.id = c.project_id;

COMMENT ON VIEW conversation_agents IS 'For every conversation: mode (pinned, none, default), the slug that applies, the agent it runs with, whether that slug is orphaned (no agent) or its agent unavailable (the scope lacks what it requires: missing), and the tenant''s and project''s slugs.';
