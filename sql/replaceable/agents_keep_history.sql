-- Every change of an agent's content bumps its version and keeps what it replaced, whoever
-- writes it: the Python layer, a console user, a migration. Status, enabled, note and uses
-- are not content: publishing or disabling does not make a new version.
-- since revision 0002

-- SECURITY DEFINER: the history is written as the owner, so tenants need no INSERT on
-- agent_versions and cannot forge a version. The trigger only fires for rows the writer may
-- update (row-level security has already decided), and its search_path is pinned.
CREATE OR REPLACE FUNCTION agents_keep_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
