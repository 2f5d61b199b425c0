-- Directory-scoped conventions (revision 0009; docs/assembly.md, ADR 0014): what each scope
-- sees, who may read and write which rows, and the history kept on every change of text.
-- One file for the concern, so its policies and grants sit next to the tables they guard.
-- since revision 0009

-- For every scope, every convention that may apply in it: the official ones, its tenant's, and
-- its project's. Which apply in a given directory (nearest first) is decided by
-- registry.harness.scoped_conventions; filter here by tenant_id and project_id.
CREATE OR REPLACE VIEW effective_conventions WITH (security_invoker = true) AS
SELECT s.tenant_id, s.project_id, c.id AS convention_id, c.layer, c.directory, c.language, c.body, c.version
  FROM public.scopes s
  JOIN public.conventions c
    ON (c.scope_tenant_id = 0 AND c.scope_project_id = 0)
    OR (c.scope_tenant_id = s.tenant_id AND c.scope_project_id IN (0, COALESCE(s.project_id, 0)));

COMMENT ON VIEW effective_conventions IS 'For every tenant (project_id NULL) and every project: the conventions of the official, tenant and project layers that apply there, with directory and language. Filter by tenant_id and project_id.';

-- Every change of a convention's text bumps its version and keeps the text it replaced:
-- conventions_keep_history.sql (from revision 0012, with the convention's scope_tenant_id;
-- conventions_keep_history_before_0012.sql below it).

CREATE OR REPLACE TRIGGER conventions_touch_updated_at BEFORE UPDATE ON public.conventions
    FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();

CREATE OR REPLACE FUNCTION delete_convention(p_convention_id bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Its history goes with it. Only a row the caller may delete (deletes.sql): its own tenant's
-- when acting for one, anything for unscoped staff.
-- Acting for a tenant, the tenant is in conventions_scope_tenant_id_key's condition: another
-- tenant's convention is not fetched to be refused (hostile round 9).
DECLARE
    v_tenant bigint := public.registry_current_tenant();
    v_id bigint;
    v_own bigint;
BEGIN
    IF v_tenant IS NOT NULL THEN
        -- Whether it is the caller's, first, by the row comparison ("Reads by id", deletes.sql).
        SELECT c.id INTO v_own FROM public.conventions c
         WHERE (c.scope_tenant_id, c.id) >= (v_tenant, p_convention_id) AND (c.scope_tenant_id, c.id) <= (v_tenant, p_convention_id)
         ORDER BY c.scope_tenant_id, c.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN NULL;
        END IF;
        DELETE FROM public.conventions c
         WHERE c.scope_tenant_id = v_tenant AND c.id = p_convention_id AND public.registry_may_delete(c.tenant_id)
        RETURNING c.id INTO v_id;
    ELSIF public.registry_may_delete(NULL) THEN
        DELETE FROM public.conventions c WHERE c.id = p_convention_id RETURNING c.id INTO v_id;
    END IF;
    RETURN v_id;
END
$$;

COMMENT ON FUNCTION delete_convention(bigint) IS 'Deletes a convention the caller may delete (with its history); returns its id, or NULL when there was none to delete.';

-- registry_app: its own tenant's rows; the official layer readable, never writable — the
-- agents' shape (policies.sql): the read policy an index condition on conventions_scope_idx's
-- first column, the writes in policies of their own, so no OR makes the read a filter
-- (hostile-tenant round 7: EXPLAIN ANALYZE counted another tenant's conventions).
CREATE POLICY conventions_app_read ON public.conventions FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants()));
CREATE POLICY conventions_app_insert ON public.conventions FOR INSERT TO registry_app
    WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY conventions_app_update ON public.conventions FOR UPDATE TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
-- History follows its convention: readable where the convention is, written by the trigger only;
-- its read policy tests the column the trigger fills, so both are in conventions_keep_history.sql.
CREATE POLICY conventions_staff_all ON public.conventions FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);
CREATE POLICY convention_versions_staff_all ON public.convention_versions FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);

-- Start from nothing, as privileges.sql does. Ids, scope keys, the layer, the version and the
-- timestamps are the database's; a tenant writes the scope, directory, language and text, and
-- afterwards only the text (moving a convention is deleting it and adding another).
-- No DELETE for registry_app (it would let a login lock the table against every tenant,
-- deletes.sql): delete_convention below.
REVOKE ALL ON public.conventions, public.convention_versions FROM registry_app;
GRANT SELECT ON public.conventions TO registry_app;
GRANT INSERT (tenant_id, project_id, directory, language, body, created_by), UPDATE (body)
    ON public.conventions TO registry_app;
GRANT SELECT ON public.convention_versions TO registry_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.conventions, public.convention_versions TO registry_admin;
GRANT SELECT ON public.effective_conventions TO registry_app, registry_admin;
