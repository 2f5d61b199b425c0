CREATE OR REPLACE VIEW effective_default_agent WITH (security_invoker = true) AS
-- tenant_id and project_id come from scopes so that filters on them are pushed down; the slugs
-- as in effective_agents.
SELECT s.tenant_id, s.project_id, r.default_agent, r.source_layer, r.agent_id, r.orphaned,
       t.slug AS tenant_slug, p.slug AS project_slug
  FROM public.scopes s
 CROSS JOIN LATERAL public.resolve_default_agent(s.tenant_id, s.project_id) r
  LEFT JOIN public.tenants t ON t.id = s.tenant_id
  LEFT JOIN public.projects p ON p.id = s.project_id;

COMMENT ON VIEW effective_default_agent IS 'For every tenant (project_id NULL) and every project: the effective default agent, its source layer, and whether it is orphaned. Filter by tenant_id and project_id, or tenant_slug and project_slug.';
