-- agents_keep_history as it was before revision 0012, for a database taken down below it
-- (agent_versions has no scope_tenant_id there). Frozen: change agents_keep_history.sql instead.
-- since revision 0002
-- before revision 0012

CREATE OR REPLACE FUNCTION agents_keep_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    IF (NEW.name, NEW.description, NEW.when_to_use, NEW.requires, NEW.instructions)
       IS NOT DISTINCT FROM (OLD.name, OLD.description, OLD.when_to_use, OLD.requires, OLD.instructions) THEN
        NEW.version := OLD.version;
        RETURN NEW;
    END IF;
    INSERT INTO public.agent_versions (agent_id, version, name, description, when_to_use, requires,
                                instructions, replaced_by)
    VALUES (OLD.id, OLD.version, OLD.name, OLD.description, OLD.when_to_use, OLD.requires,
            OLD.instructions, COALESCE(NULLIF(current_setting('registry.actor', true), ''), session_user));
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION agents_keep_history() IS 'Trigger: on a change of content, keeps the old content in agent_versions and bumps version.';

CREATE OR REPLACE TRIGGER agents_keep_history BEFORE UPDATE ON public.agents
    FOR EACH ROW EXECUTE FUNCTION public.agents_keep_history();
