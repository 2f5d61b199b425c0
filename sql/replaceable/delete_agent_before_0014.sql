-- delete_agent as it was before revision 0014, for a database taken down below it (no
-- key_tenant_id there: acting for a tenant it names scope_tenant_id, held by 0012's
-- agents_id_scope_tenant_key). Frozen: from 0014 on, delete_agent.sql has the function.
-- since revision 0007
-- before revision 0014

CREATE OR REPLACE FUNCTION delete_agent(p_agent_id bigint, p_expected_version integer DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- With p_expected_version, only that version is deleted (a concurrent edit wins). Acting for a
-- tenant, the tenant is in the key's condition (agents_id_scope_tenant_key), so another tenant's
-- agent is not fetched to be refused (hostile round 9: the caller's pg_stat_xact_user_tables).
DECLARE
    v_tenant bigint := public.registry_current_tenant();
BEGIN
    IF v_tenant IS NOT NULL THEN
        DELETE FROM public.agents a
         WHERE a.id = p_agent_id AND a.scope_tenant_id = v_tenant
           AND a.version = COALESCE(p_expected_version, a.version)
           AND public.registry_may_delete(a.tenant_id);
    ELSIF public.registry_may_delete(NULL) THEN
        DELETE FROM public.agents a
         WHERE a.id = p_agent_id
           AND a.version = COALESCE(p_expected_version, a.version);
    ELSE
        RETURN false;
    END IF;
    RETURN FOUND;
END
$$;

COMMENT ON FUNCTION delete_agent(bigint, integer) IS 'Deletes an agent the caller may delete (at the expected version, when given); true when a row was deleted.';

