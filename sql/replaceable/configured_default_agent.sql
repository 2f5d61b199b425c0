-- Which layer decides a scope's default, and what it says (docs/design.md, "Resolution rules", rule 4, first half):
-- the most specific layer whose default_agent is not NULL. 0 rows when no layer decides.

-- `scope_project_id IN (0, p_project_id)`, not COALESCE(p_project_id, 0): the same rows (a NULL
-- project matches nothing and 0 is listed), and nothing row-level security would hold back
-- from the index condition (it defers functions not known to be leakproof, COALESCE among them).

CREATE OR REPLACE FUNCTION configured_default_agent(p_tenant_id bigint, p_project_id bigint)
RETURNS TABLE (default_agent text, source_layer text)
LANGUAGE sql STABLE
AS $$
SELECT ad.default_agent, ad.layer
  FROM public.agent_defaults ad
 WHERE ad.scope_tenant_id IN (0, p_tenant_id)
   AND ad.scope_project_id IN (0, p_project_id)
   AND ad.default_agent IS NOT NULL
 ORDER BY ad.scope_project_id DESC, ad.scope_tenant_id DESC
 LIMIT 1
$$;

COMMENT ON FUNCTION configured_default_agent(bigint, bigint) IS 'The default_agent of the most specific layer that sets one ('''' = none), and that layer; no row when every layer inherits.';
