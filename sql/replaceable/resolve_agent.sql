-- The effective agent of one slug in one scope: resolve_agents narrowed to a slug, with the
-- slug inside the index condition, so it reads at most three index entries instead of a
-- catalog. winning_agent holds the rules; this adds the check that the scope exists.
-- tests/test_resolution.py checks it agrees with resolve_agents.

CREATE OR REPLACE FUNCTION resolve_agent(p_tenant_id bigint, p_project_id bigint, p_slug text)
RETURNS TABLE (
    tenant_id    bigint,
    project_id   bigint,
    slug         text,
    agent_id     bigint,
    layer        text,
    version      integer,
    name         text,
    description  text,
    when_to_use  text,
    requires     jsonb,
    instructions text,
    available    boolean,
    missing      jsonb
)
LANGUAGE sql STABLE
AS $$
SELECT p_tenant_id, p_project_id, w.slug, w.id, w.layer, w.version, w.name,
       w.description, w.when_to_use, w.requires, w.instructions, m.available, m.missing
  FROM public.winning_agent(p_tenant_id, p_project_id, p_slug) w
 CROSS JOIN LATERAL public.agent_missing(p_tenant_id, p_project_id, w.requires) m
 WHERE EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = p_tenant_id)
   AND (p_project_id IS NULL
        OR EXISTS (SELECT 1 FROM public.projects p WHERE p.id = p_project_id AND p.tenant_id = p_tenant_id))
$$;

COMMENT ON FUNCTION resolve_agent(bigint, bigint, text) IS 'The effective agent of one slug in a scope (0 or 1 row); same rules and columns as resolve_agents.';
