-- adopt_conversation_agent as it was before revision 0008, for a database taken down below it
-- (agent_adoptions has no version or fingerprint there). Frozen: change
-- adopt_conversation_agent.sql instead — but a downgrade makes this the live function, so it
-- carries round 10's fixes too (R02): the planner settings pinned, and acting for a tenant the
-- caller's own row looked up first by the tenant and the id (conversations_tenant_id_key from
-- revision 0007; below it the same comparison reads the caller's rows only). Without that check,
-- at revision 0007 every caller setting measured, the defaults included, fetched another tenant's
-- conversation (tests/test_hostile_round10.py, "the frozen copies").
-- since revision 0004
-- before revision 0008

CREATE OR REPLACE FUNCTION adopt_conversation_agent(p_conversation_id bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined is planned again on every call from
-- a new statement (each question, each trigger firing), ~0.45 ms for this resolution; PL/pgSQL
-- keeps its statements' plans for the session.
-- SECURITY DEFINER: adoptions are written here only, as the owner, so a tenant (no INSERT on
-- agent_adoptions) cannot record one that did not happen. What is recorded is what the
-- conversation resolves to now. A caller acting for a tenant reaches only that tenant's
-- conversations (registry_current_tenant() reads the caller's login and setting); anything
-- else returns NULL and records nothing, as if the conversation did not exist. Unscoped, only
-- staff (registry_admin, registry_owner, superusers) may adopt.
DECLARE
    v_agent_id  bigint;
    v_tenant_id bigint;
    v_own       bigint;
    v_caller    bigint := public.registry_current_tenant();
BEGIN
    IF v_caller IS NULL AND NOT pg_has_role(session_user, 'registry_admin', 'MEMBER')
       AND NOT pg_has_role(session_user, 'registry_owner', 'MEMBER') THEN
        RETURN NULL;
    END IF;
    IF v_caller IS NOT NULL THEN
        SELECT c.id INTO v_own FROM public.conversations c
         WHERE (c.tenant_id, c.id) >= (v_caller, p_conversation_id)
           AND (c.tenant_id, c.id) <= (v_caller, p_conversation_id)
         ORDER BY c.tenant_id, c.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN NULL;
        END IF;
    END IF;
    SELECT r.agent_id, r.tenant_id INTO v_agent_id, v_tenant_id
      FROM public.resolve_conversation_agent(p_conversation_id) r
     WHERE v_caller IS NULL OR r.tenant_id = v_caller;
    IF v_agent_id IS NOT NULL THEN
        INSERT INTO public.agent_adoptions (conversation_id, agent_id, tenant_id)
        VALUES (p_conversation_id, v_agent_id, v_tenant_id)
        ON CONFLICT ON CONSTRAINT agent_adoptions_pkey DO NOTHING;
    END IF;
    RETURN v_agent_id;
END
$$;

COMMENT ON FUNCTION adopt_conversation_agent(bigint) IS 'Records that a conversation adopted the agent it runs with now (no-op if already recorded); returns that agent''s id.';
