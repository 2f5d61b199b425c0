-- The winner for one slug in a scope, and the rules for it in one place: the published and
-- enabled rows of the scope's three layers, the most specific first, unless the project opted
-- out of it (then nothing: what lies beneath does not resurface). No check that the scope
-- exists — resolve_agent adds that for callers who name a scope; a conversation's foreign keys
-- already guarantee its own, so the hot path (conversation_agents) calls this directly.
--
-- winning_agent_id decides; winning_agent is that decision's agents row. The conversation path
-- needs only the id, and reading the row again would be one more index per question.
--
-- Three probes of agents_layer_slug_key, one per layer and most specific first, each naming
-- its full key (scope_tenant_id, scope_project_id, slug): COALESCE stops at the first layer
-- with a candidate. The earlier form — one scan with IN (0, tenant) and IN (0, project),
-- sorted, LIMIT 1 — left the project key out of the index condition (it walked the index
-- entries of all the tenant's projects) and paid for a sort and the array keys' setup on every
-- question. No slug, no probes: the conversations that run with no agent skip them.
--
-- The last three parameters ask "what if" for the impact previews (impact.sql), so a preview
-- resolves by these same rules: p_removed_agent is treated as gone (deleted, disabled or
-- unpublished), and p_optout_project as having opted out of p_optout_agent. Left NULL, they
-- change nothing.

CREATE OR REPLACE FUNCTION winning_agent_id(p_tenant_id bigint, p_project_id bigint, p_slug text,
                                            p_removed_agent bigint DEFAULT NULL,
                                            p_optout_project bigint DEFAULT NULL,
                                            p_optout_agent bigint DEFAULT NULL)
RETURNS TABLE (agent_id bigint)
LANGUAGE sql STABLE
AS $$
SELECT w.agent_id
  FROM (SELECT COALESCE(
                   (SELECT a.id FROM public.agents a      -- the project's own row (none when p_project_id is NULL)
                     WHERE a.scope_tenant_id = p_tenant_id AND a.scope_project_id = p_project_id
                       AND a.slug = p_slug AND a.status = 'published' AND a.enabled
                       AND a.id IS DISTINCT FROM p_removed_agent),
                   (SELECT a.id FROM public.agents a      -- the tenant's
                     WHERE a.scope_tenant_id = p_tenant_id AND a.scope_project_id = 0
                       AND a.slug = p_slug AND a.status = 'published' AND a.enabled
                       AND a.id IS DISTINCT FROM p_removed_agent),
                   (SELECT a.id FROM public.agents a      -- the official one
                     WHERE a.scope_tenant_id = 0 AND a.scope_project_id = 0
                       AND a.slug = p_slug AND a.status = 'published' AND a.enabled
                       AND a.id IS DISTINCT FROM p_removed_agent)) AS agent_id
         WHERE p_slug IS NOT NULL
        OFFSET 0) w  -- a fence: w.agent_id is read three times below, the probes must run once
 WHERE w.agent_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM public.agent_optouts o
                    WHERE o.project_id = p_project_id AND o.agent_id = w.agent_id)
   AND (w.agent_id IS DISTINCT FROM p_optout_agent OR p_project_id IS DISTINCT FROM p_optout_project)
$$;

COMMENT ON FUNCTION winning_agent_id(bigint, bigint, text, bigint, bigint, bigint) IS 'The id of the effective agent of one slug in a scope, assuming the scope exists (0 or 1 row); optionally as it would be with one agent removed or one more opt-out.';

CREATE OR REPLACE FUNCTION winning_agent(p_tenant_id bigint, p_project_id bigint, p_slug text,
                                         p_removed_agent bigint DEFAULT NULL,
                                         p_optout_project bigint DEFAULT NULL,
                                         p_optout_agent bigint DEFAULT NULL)
RETURNS SETOF public.agents
LANGUAGE sql STABLE
AS $$
SELECT a.*
  FROM public.winning_agent_id(p_tenant_id, p_project_id, p_slug, p_removed_agent, p_optout_project, p_optout_agent) w
  JOIN public.agents a ON a.id = w.agent_id
$$;

COMMENT ON FUNCTION winning_agent(bigint, bigint, text, bigint, bigint, bigint) IS 'The effective agents row of one slug in a scope, assuming the scope exists (0 or 1 row); optionally as it would be with one agent removed or one more opt-out. Callers naming a scope use resolve_agent.';
