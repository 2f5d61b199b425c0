-- The effective default of one scope (docs/design.md, "Resolution rules", rule 4).
--
-- configured_default_agent picks the deciding layer; '' means no default. A slug resolves
-- in the asking scope, so a tenant's override of an official slug becomes the default
-- without touching the official row. A slug that resolves to nothing is an orphan:
-- reported, never an error. When no layer decides, default_agent is '' and source_layer NULL.

CREATE OR REPLACE FUNCTION resolve_default_agent(p_tenant_id bigint, p_project_id bigint DEFAULT NULL)
RETURNS TABLE (
    tenant_id     bigint,
    project_id    bigint,
    default_agent text,
    source_layer  text,
    agent_id      bigint,
    orphaned      boolean
)
LANGUAGE sql STABLE
AS $$
SELECT p_tenant_id, p_project_id,
       COALESCE(d.default_agent, ''),
       d.source_layer,
       e.agent_id,
       COALESCE(d.default_agent, '') <> '' AND e.agent_id IS NULL
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL public.configured_default_agent(p_tenant_id, p_project_id) d ON true
  LEFT JOIN LATERAL public.resolve_agent(p_tenant_id, p_project_id, d.default_agent) e ON true
 WHERE EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = p_tenant_id)
   AND (p_project_id IS NULL
        OR EXISTS (SELECT 1 FROM public.projects p WHERE p.id = p_project_id AND p.tenant_id = p_tenant_id))
$$;

COMMENT ON FUNCTION resolve_default_agent(bigint, bigint) IS 'Effective default of a scope: the configured slug ('''' = none), the layer that configured it (NULL when no layer did), the agent it resolves to, and whether it is orphaned.';
