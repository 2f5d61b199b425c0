-- Deleting an agent without a DELETE grant (deletes.sql has the why, and the other delete
-- functions). Acting for a tenant, the tenant is in the key's condition — key_tenant_id, the first
-- column of agents_key_tenant_id_key (revision 0014) — so another tenant's agent is not fetched
-- to be refused (hostile round 9, R21's channel by id: the caller's pg_stat_xact_user_tables).
-- Below revision 0014: delete_agent_before_0014.sql.
-- since revision 0014

CREATE OR REPLACE FUNCTION delete_agent(p_agent_id bigint, p_expected_version integer DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- With p_expected_version, only that version is deleted (a concurrent edit wins).
DECLARE
    v_tenant bigint := public.registry_current_tenant();
    v_own bigint;
BEGIN
    IF v_tenant IS NOT NULL THEN
        -- Whether it is the caller's, first, by the row comparison ("Reads by id", deletes.sql).
        SELECT a.id INTO v_own FROM public.agents a
         WHERE (a.key_tenant_id, a.id) >= (v_tenant, p_agent_id) AND (a.key_tenant_id, a.id) <= (v_tenant, p_agent_id)
         ORDER BY a.key_tenant_id, a.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN false;
        END IF;
        DELETE FROM public.agents a
         WHERE a.key_tenant_id = v_tenant AND a.id = p_agent_id
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
