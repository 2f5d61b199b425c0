-- Tenant isolation (docs/security.md). A tenant-scoped session says which tenant it acts for
-- in a transaction-local setting:
--
--     SELECT set_config('registry.tenant_id', '42', true);
--
-- The setting is taken only from a login allowed to name that tenant (registry_service or
-- registry_tenant_<id>, revision 0007). Policies fail closed: with the setting unset, or ''
-- (what a transaction-local setting leaves behind on a pooled connection), or anything but a
-- positive integer, or set by a login that may not name that tenant,
-- registry_current_tenant() is NULL, every comparison with it is false, nothing is visible
-- and every write is refused — never a cast error.
-- since revision 0003

CREATE OR REPLACE FUNCTION registry_current_tenant() RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
-- The setting counts only for a session whose login may name that tenant: a member of
-- registry_service (any tenant) or of registry_tenant_<id> (that one). session_user, not
-- current_user: SET ROLE cannot change it. to_regrole gives NULL for a role that does not exist,
-- never an error that would tell which tenant ids have one. No subquery: it stays inlinable.
SELECT CASE WHEN current_setting('registry.tenant_id', true) ~ '^[1-9][0-9]{0,17}$'
             AND (COALESCE(pg_has_role(session_user, to_regrole('registry_service'), 'MEMBER'), false)
                  OR COALESCE(pg_has_role(session_user,
                                          to_regrole('registry_tenant_' || current_setting('registry.tenant_id', true)),
                                          'MEMBER'), false))
            THEN current_setting('registry.tenant_id', true)::bigint END
$$;

COMMENT ON FUNCTION registry_current_tenant() IS 'The tenant of this transaction (setting registry.tenant_id), or NULL: policies then show nothing.';

-- The tenants whose agents a session may read: the official layer (0) and its own, or none.
-- The read policies call it inline, never through a sub-SELECT (hostile round 11, R01): inlined,
-- it is an index condition on the first column of the tenant-led keys (a stable expression,
-- computed once a scan), so a condition of the caller's own (`slug >= 'g'`) never scans another
-- tenant's rows and EXPLAIN ANALYZE's "Rows Removed by Filter" has none of them to count
-- (rounds 2-4, #22); and where it is a filter (a seq scan the caller forced, a key by id) it is
-- computed on each row that reaches it and shows nowhere. A sub-SELECT was an InitPlan, run the
-- first time a row reached the policy: PostgreSQL puts a caller's leakproof condition cheaper than
-- the policy (texteq, `IS NULL`, a boolean column) before it, so EXPLAIN ANALYZE's "InitPlan …
-- (never executed)" told whether any hidden row passed the caller's condition, and a binary
-- search read other tenants' texts. The one sub-SELECT left is the agents' second test
-- (agents_read.sql), which always costs more than the first and so runs after it.
-- registry_current_tenant() is evaluated once: NULLIF gives NULL when the array is {0, NULL} (array
-- equality holds NULL elements equal), else {0, tenant}. The CASE it replaced (2026-12-01) called it
-- twice, 2.7 µs a call against 1.5 µs; inline in the policies it runs once a scan, or once a row
-- where it is a filter.
CREATE OR REPLACE FUNCTION registry_visible_tenants() RETURNS bigint[]
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT NULLIF(ARRAY[0, public.registry_current_tenant()], ARRAY[0, NULL::bigint])
$$;

COMMENT ON FUNCTION registry_visible_tenants() IS 'The scope_tenant_id values whose agents this session may read: {0, its tenant}, or NULL (nothing) without a tenant.';

-- registry_app: its own tenant's rows; the official layer readable, never writable.
CREATE POLICY tenants_app_read ON public.tenants FOR SELECT TO registry_app
    USING (id = public.registry_current_tenant());
CREATE POLICY projects_app_own ON public.projects FOR ALL TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
-- Agents: one read policy, an index condition (above), in agents_read.sql since revision 0014
-- (it tests a column of that revision; agents_read_before_0014.sql below it); the writes in
-- policies of their own, so no FOR ALL policy ORs its condition into the reads (an OR is a
-- filter, never an index condition). No DELETE policy: registry_app has no DELETE (deletes.sql).
CREATE POLICY agents_app_insert ON public.agents FOR INSERT TO registry_app
    WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY agents_app_update ON public.agents FOR UPDATE TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
-- The same shape for every table a tenant reads (hostile-tenant round 7, #20-#23): one read
-- policy that is an index condition on each index of the table but the keys by id — an `= ANY` of
-- the visible tenants on the column every such index leads with, or for a table of one tenant's
-- rows a plain equality on tenant_id, which every index of it holds (revision 0011; PostgreSQL
-- makes a plain equality an index condition on any column of a b-tree, an `= ANY` only surely on
-- the first). Inline, with no sub-SELECT (above, round 11): a caller's condition placed before it
-- changes nothing it shows. The writes have policies of their own.
CREATE POLICY agent_optouts_app_read ON public.agent_optouts FOR SELECT TO registry_app
    USING (tenant_id = public.registry_current_tenant());
CREATE POLICY agent_optouts_app_insert ON public.agent_optouts FOR INSERT TO registry_app
    WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY agent_defaults_app_read ON public.agent_defaults FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants()));
CREATE POLICY agent_defaults_app_insert ON public.agent_defaults FOR INSERT TO registry_app
    WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY agent_defaults_app_update ON public.agent_defaults FOR UPDATE TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY conversations_app_read ON public.conversations FOR SELECT TO registry_app
    USING (tenant_id = public.registry_current_tenant());
CREATE POLICY conversations_app_insert ON public.conversations FOR INSERT TO registry_app
    WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY conversations_app_update ON public.conversations FOR UPDATE TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
-- History follows its agent: readable where the agent is. Only the history trigger writes it
-- (as the owner), so a tenant cannot forge a version. Its read policy tests the column that
-- trigger fills (revision 0012), so both are in agents_keep_history.sql.

-- The product's staff and the owner (migrations): every row of every layer.
CREATE POLICY tenants_staff_all ON public.tenants FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY projects_staff_all ON public.projects FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY agents_staff_all ON public.agents FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY agent_optouts_staff_all ON public.agent_optouts FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY agent_defaults_staff_all ON public.agent_defaults FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY conversations_staff_all ON public.conversations FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
CREATE POLICY agent_versions_staff_all ON public.agent_versions FOR ALL TO registry_admin, registry_owner USING (true) WITH CHECK (true);
