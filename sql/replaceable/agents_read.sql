-- The agents' read policy (policies.sql has the rest, and why it is an uncorrelated sub-SELECT):
-- the official layer and the session's tenant, tested on both tenant columns, so that it is an
-- index condition on the first column of every index of agents that holds a tenant —
-- scope_tenant_id for agents_layer_slug_key and agents_project_idx, key_tenant_id for the
-- foreign keys' targets agents_key_tenant_id_key and agents_key_tenant_id_scope_key (revision
-- 0014, hostile-tenant round 9, R16). PostgreSQL keeps an `= ANY` surely as an index condition
-- only on an index's first column; on a later one it may leave it a filter, and EXPLAIN ANALYZE
-- then counts the rows a caller's own condition fetched — another tenant's. The two columns are
-- equal on every row, so the second test removes nothing the first keeps.
-- The first test is inline (policies.sql, hostile round 11): authoritative, never a lazily run
-- InitPlan. The second is computed once a query by its sub-SELECT, so that as the filter on every
-- row agents_layer_slug_key gives (a catalog's ~220) it costs a read of that value, not the
-- function's 2-4 µs a row. An InitPlan runs the first time a row reaches it; this one is always
-- reached after the first test, so only the official layer's and the session's rows reach it: the
-- COALESCE's two never-evaluated fallbacks (the same function, NULL when the sub-SELECT is) make
-- its cost on paper higher than the first test's whatever cpu_operator_cost is, and PostgreSQL
-- orders a scan's policy conditions by cost (equal costs keep the written order). As an index
-- condition on the key_tenant_id-led keys it is computed when the scan starts.
-- Below revision 0014 (no key_tenant_id): agents_read_before_0014.sql.
-- since revision 0014

CREATE POLICY agents_app_read ON public.agents FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants())
           AND key_tenant_id = ANY (COALESCE((SELECT public.registry_visible_tenants()),
                                             public.registry_visible_tenants(), public.registry_visible_tenants())));
