-- conventions_keep_history and convention_versions' read policy as they were before revision
-- 0012, for a database taken down below it (convention_versions has no scope_tenant_id there).
-- Frozen: change conventions_keep_history.sql instead.
-- since revision 0009
-- before revision 0012

-- Every change of a convention's text bumps its version and keeps the text it replaced,
-- whoever writes it. SECURITY DEFINER so tenants need no INSERT on convention_versions and
-- cannot forge one; the trigger fires only for rows the writer may update.
CREATE OR REPLACE FUNCTION conventions_keep_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    IF NEW.body IS NOT DISTINCT FROM OLD.body THEN
        NEW.version := OLD.version;
        RETURN NEW;
    END IF;
    INSERT INTO public.convention_versions (convention_id, version, body, replaced_by)
    VALUES (OLD.id, OLD.version, OLD.body, COALESCE(NULLIF(current_setting('registry.actor', true), ''), session_user));
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION conventions_keep_history() IS 'Trigger: on a change of body, keeps the old text in convention_versions and bumps version.';

CREATE OR REPLACE TRIGGER conventions_keep_history BEFORE UPDATE ON public.conventions
    FOR EACH ROW EXECUTE FUNCTION public.conventions_keep_history();

-- History follows its convention: readable where the convention is; written by the trigger only.
CREATE POLICY convention_versions_app_read ON public.convention_versions FOR SELECT TO registry_app
    USING (EXISTS (SELECT 1 FROM public.conventions c WHERE c.id = convention_versions.convention_id));
