CREATE OR REPLACE VIEW effective_agents WITH (security_invoker = true) AS
-- tenant_id and project_id come from scopes, not from the function, so that a filter on
-- them is pushed down to the scope's index instead of resolving every scope first.
SELECT s.tenant_id, s.project_id, r.slug, r.agent_id, r.layer, r.version, r.name,
       r.description, r.when_to_use, r.requires, r.instructions
  FROM public.scopes s
 CROSS JOIN LATERAL public.resolve_agents(s.tenant_id, s.project_id) r;

COMMENT ON VIEW effective_agents IS 'For every tenant (project_id NULL) and every project: one row per effective slug, with the layer it came from. Filter by tenant_id and project_id.';
