-- The agents' read policy (policies.sql has the rest, and why it is an uncorrelated sub-SELECT):
-- the official layer and the session's tenant, tested on both tenant columns, so that it is an
-- index condition on the first column of every index of agents that holds a tenant —
-- scope_tenant_id for agents_layer_slug_key and agents_project_idx, key_tenant_id for the
-- foreign keys' targets agents_key_tenant_id_key and agents_key_tenant_id_scope_key (revision
-- 0014, hostile-tenant round 9, R16). PostgreSQL keeps an `= ANY` surely as an index condition
-- only on an index's first column; on a later one it may leave it a filter, and EXPLAIN ANALYZE
-- then counts the rows a caller's own condition fetched — another tenant's. The two columns are
-- equal on every row, so the second test removes nothing the first keeps.
-- Below revision 0014 (no key_tenant_id): agents_read_before_0014.sql.
-- since revision 0014

CREATE POLICY agents_app_read ON public.agents FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY ((SELECT public.registry_visible_tenants())::bigint[])
           AND key_tenant_id = ANY ((SELECT public.registry_visible_tenants())::bigint[]));
