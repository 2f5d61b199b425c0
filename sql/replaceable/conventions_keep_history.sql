-- A convention's history (revision 0009; docs/assembly.md, ADR 0014): every change of its text
-- bumps its version and keeps the text it replaced, whoever writes it, with the convention's
-- scope_tenant_id (revision 0012) — the column the history's read policy tests.
-- Below revision 0012: conventions_keep_history_before_0012.sql.
-- since revision 0012

-- SECURITY DEFINER so tenants need no INSERT on convention_versions and cannot forge a version
-- or its scope_tenant_id (copied from the convention's row, held equal to it by
-- convention_versions_convention_fk); the trigger fires only for rows the writer may update.
CREATE OR REPLACE FUNCTION conventions_keep_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    IF NEW.body IS NOT DISTINCT FROM OLD.body THEN
        NEW.version := OLD.version;
        RETURN NEW;
    END IF;
    INSERT INTO public.convention_versions (scope_tenant_id, convention_id, version, body, replaced_by)
    VALUES (OLD.scope_tenant_id, OLD.id, OLD.version, OLD.body,
            COALESCE(NULLIF(current_setting('registry.actor', true), ''), session_user));
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION conventions_keep_history() IS 'Trigger: on a change of body, keeps the old text (with the convention''s scope_tenant_id) in convention_versions and bumps version.';

CREATE OR REPLACE TRIGGER conventions_keep_history BEFORE UPDATE ON public.conventions
    FOR EACH ROW EXECUTE FUNCTION public.conventions_keep_history();

-- History is readable where its convention is: the conventions' read policy (conventions.sql),
-- on the column the trigger copies, which leads convention_versions_pkey — an index condition on
-- every probe a tenant can plan, so another tenant's versions are never fetched to be filtered
-- out and counted by EXPLAIN ANALYZE (hostile-tenant round 7, #20-#23; revision 0012).
CREATE POLICY convention_versions_app_read ON public.convention_versions FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants()));
