-- Adoption (docs/design.md, "Resolution rules", rule 6): a conversation adopts the agent it runs
-- with, once per (conversation, agent), recording the agent's version then (revision 0008) and,
-- when the caller built the prompt, the prompt's fingerprint. Called by the triggers of
-- adoption.sql and by services when they answer a question.
-- since revision 0008

CREATE OR REPLACE FUNCTION adopt_conversation_agent(p_conversation_id bigint, p_fingerprint text DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined is planned again on every call from
-- a new statement (each question, each trigger firing), ~0.45 ms for this resolution; PL/pgSQL
-- keeps its statements' plans for the session.
-- SECURITY DEFINER: adoptions are written here only, as the owner, so a tenant (no INSERT on
-- agent_adoptions) cannot record one that did not happen. What is recorded is what the
-- conversation resolves to now, at the agent's version now. A caller acting for a tenant
-- reaches only that tenant's conversations (registry_current_tenant() reads the caller's login
-- and setting); anything else returns NULL and records nothing, as if the conversation did not
-- exist. Unscoped, only staff (registry_admin, registry_owner, superusers) may adopt.
-- The fingerprint fills an adoption's empty one once, and only while the agent is still at the
-- adopted version: it then names the prompt that version was framed into. An unavailable
-- agent is not adopted (the conversation runs without it).
-- The planner settings are pinned, as on every definer (deletes.sql says why).
DECLARE
    v_agent_id  bigint;
    v_tenant_id bigint;
    v_version   integer;
    v_own       bigint;
    v_caller    bigint := public.registry_current_tenant();
BEGIN
    IF v_caller IS NULL AND NOT pg_has_role(session_user, 'registry_admin', 'MEMBER')
       AND NOT pg_has_role(session_user, 'registry_owner', 'MEMBER') THEN
        RETURN NULL;
    END IF;
    IF p_fingerprint !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'fingerprint % is not a sha256 in hex (64 characters 0-9a-f)', quote_literal(left(p_fingerprint, 80))
            USING ERRCODE = '22023';
    END IF;
    -- Acting for a tenant, whether the conversation is the caller's is read first, by the tenant
    -- and the id as one row comparison: no key by id alone can take it, so another tenant's
    -- conversation is never fetched (hostile round 10, R02; deletes.sql, "Reads by id").
    IF v_caller IS NOT NULL THEN
        SELECT c.id INTO v_own FROM public.conversations c
         WHERE (c.tenant_id, c.id) >= (v_caller, p_conversation_id)
           AND (c.tenant_id, c.id) <= (v_caller, p_conversation_id)
         ORDER BY c.tenant_id, c.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN NULL;
        END IF;
    END IF;
    SELECT r.agent_id, r.tenant_id, a.version INTO v_agent_id, v_tenant_id, v_version
      FROM public.resolve_conversation_agent(p_conversation_id) r
      LEFT JOIN public.agents a ON a.id = r.agent_id
     WHERE v_caller IS NULL OR r.tenant_id = v_caller;
    IF v_agent_id IS NOT NULL THEN
        INSERT INTO public.agent_adoptions AS d (conversation_id, agent_id, tenant_id, version, fingerprint)
        VALUES (p_conversation_id, v_agent_id, v_tenant_id, v_version, p_fingerprint)
        ON CONFLICT ON CONSTRAINT agent_adoptions_pkey DO UPDATE SET fingerprint = EXCLUDED.fingerprint
         WHERE d.fingerprint IS NULL AND EXCLUDED.fingerprint IS NOT NULL AND d.version = EXCLUDED.version;
    END IF;
    RETURN v_agent_id;
END
$$;

COMMENT ON FUNCTION adopt_conversation_agent(bigint, text) IS 'Records that a conversation adopted the agent it runs with now, at its current version (no-op if already recorded; an empty fingerprint is filled while the version is unchanged); returns that agent''s id.';
