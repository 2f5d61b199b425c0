-- The effective catalog of one scope (docs/design.md, "Resolution rules", 1–3).
--
-- Candidates are the published and enabled rows of the scope's three layers; per slug the
-- most specific wins, so a draft or disabled override leaves the row beneath visible.
-- Then the opt-outs: if the project hid the winner, the slug is hidden and nothing beneath
-- resurfaces, because the opt-out is applied after the winner is chosen.
--
-- Availability (rule 7) is a property of the winner, computed after it is chosen: an agent
-- whose requirements the scope lacks still wins its slug and is reported `available = false`
-- with what is `missing`, so nothing beneath resurfaces in its place (docs/adr/0012-availability.md).
--
-- LANGUAGE sql, STABLE and a single SELECT so the planner inlines it: the views built on
-- it keep their filters pushed down to the indexes. The DISTINCT ON sorts only the columns
-- returned, not the whole agents row (a.* cost ~100 µs more a catalog at L).

-- `scope_project_id IN (0, p_project_id)`, not COALESCE(p_project_id, 0): the same rows (a NULL
-- project matches nothing and 0 is listed), and nothing row-level security would hold back
-- from the index condition (it defers functions not known to be leakproof, COALESCE among them).

CREATE OR REPLACE FUNCTION resolve_agents(p_tenant_id bigint, p_project_id bigint DEFAULT NULL)
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
  FROM (SELECT DISTINCT ON (a.slug) a.slug, a.id, a.layer, a.version, a.name, a.description,
                                    a.when_to_use, a.requires, a.instructions
          FROM public.agents a
         WHERE a.status = 'published'
           AND a.enabled
           AND a.scope_tenant_id IN (0, p_tenant_id)
           AND a.scope_project_id IN (0, p_project_id)
         ORDER BY a.slug, a.scope_project_id DESC, a.scope_tenant_id DESC) w
 CROSS JOIN LATERAL public.agent_missing(p_tenant_id, p_project_id, w.requires) m
 WHERE EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = p_tenant_id)
   AND (p_project_id IS NULL
        OR EXISTS (SELECT 1 FROM public.projects p WHERE p.id = p_project_id AND p.tenant_id = p_tenant_id))
   AND NOT EXISTS (SELECT 1 FROM public.agent_optouts o
                    WHERE o.project_id = p_project_id AND o.agent_id = w.id)
 ORDER BY w.slug
$$;

COMMENT ON FUNCTION resolve_agents(bigint, bigint) IS 'Effective agents of a scope: one row per slug, with the layer it came from and whether the scope has what it requires (available, missing). project_id NULL = tenant-wide. An unknown tenant, or a project outside the tenant, yields no rows.';
