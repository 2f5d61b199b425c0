-- Every change of an agent's content bumps its version and keeps what it replaced, whoever
-- writes it: the Python layer, a console user, a migration. Status, enabled, note and uses
-- are not content: publishing or disabling does not make a new version.
-- Below revision 0012 (no scope_tenant_id in agent_versions): agents_keep_history_before_0012.sql
-- and agent_versions_read_before_0012.sql.
-- since revision 0012

-- SECURITY DEFINER: the history is written as the owner, so tenants need no INSERT on
-- agent_versions and cannot forge a version — nor its scope_tenant_id, which is copied here from
-- the agent's row and held equal to it by agent_versions_agent_fk. The trigger only fires for rows
-- the writer may update (row-level security has already decided), and its search_path is pinned.
-- OLD's scope_tenant_id, as every other value kept: the version is the row as it was (if staff
-- move the agent to another tenant in the same statement, the foreign key's ON UPDATE CASCADE
-- carries its history along).
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
    INSERT INTO public.agent_versions (scope_tenant_id, agent_id, version, name, description, when_to_use,
                                       requires, instructions, replaced_by)
    VALUES (OLD.scope_tenant_id, OLD.id, OLD.version, OLD.name, OLD.description, OLD.when_to_use,
            OLD.requires, OLD.instructions,
            COALESCE(NULLIF(current_setting('registry.actor', true), ''), session_user));
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION agents_keep_history() IS 'Trigger: on a change of content, keeps the old content (with the agent''s scope_tenant_id) in agent_versions and bumps version.';

CREATE OR REPLACE TRIGGER agents_keep_history BEFORE UPDATE ON public.agents
    FOR EACH ROW EXECUTE FUNCTION public.agents_keep_history();

-- History is readable where its agent is: the agents' own read policy (policies.sql), on the
-- column the trigger copies. It leads agent_versions_pkey, so the policy is an index condition on
-- every probe a tenant can plan (by agent, by version, by range), and another tenant's versions
-- are never fetched to be filtered out and counted by EXPLAIN ANALYZE (hostile-tenant round 7,
-- #20-#23; revision 0012). No write policy for registry_app: it has no INSERT (privileges.sql).
CREATE POLICY agent_versions_app_read ON public.agent_versions FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants()));
