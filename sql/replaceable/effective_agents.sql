CREATE OR REPLACE VIEW effective_agents WITH (security_invoker = true) AS
-- tenant_id and project_id come from scopes, not from the function, so that a filter on
-- them is pushed down to the scope's index instead of resolving every scope first.
-- tenant_slug and project_slug let a console filter by slugs (docs/console.md): a filter on them
-- reaches tenants_slug_key and projects_tenant_slug_key, then the scope by its key; a query that
-- does not name them loses the two joins (left joins on primary keys the planner removes).
SELECT s.tenant_id, s.project_id, r.slug, r.agent_id, r.layer, r.version, r.name,
       r.description, r.when_to_use, r.requires, r.instructions, r.available, r.missing,
       t.slug AS tenant_slug, p.slug AS project_slug
  FROM public.scopes s
 CROSS JOIN LATERAL public.resolve_agents(s.tenant_id, s.project_id) r
  LEFT JOIN public.tenants t ON t.id = s.tenant_id
  LEFT JOIN public.projects p ON p.id = s.project_id;

COMMENT ON VIEW effective_agents IS 'For every tenant (project_id NULL) and every project: one row per effective slug, with the layer it came from and whether the scope has what it requires (available, missing). Filter by tenant_id and project_id, or tenant_slug and project_slug.';
