-- Adoption (docs/design.md, "Resolution rules", rule 6): a conversation adopts the agent it runs with, once per
-- (conversation, agent). The trigger records it when a conversation starts or changes its
-- agent_slug; a service calls adopt_conversation_agent(id) when it answers a question, which
-- also records an implicit switch (a default that changed) and is a no-op otherwise.
-- since revision 0004

CREATE OR REPLACE FUNCTION adopt_conversation_agent(p_conversation_id bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
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
    v_caller    bigint := public.registry_current_tenant();
BEGIN
    IF v_caller IS NULL AND NOT pg_has_role(session_user, 'registry_admin', 'MEMBER')
       AND NOT pg_has_role(session_user, 'registry_owner', 'MEMBER') THEN
        RETURN NULL;
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

CREATE OR REPLACE FUNCTION conversations_adopt() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM public.adopt_conversation_agent(NEW.id);
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER conversations_adopt_on_start AFTER INSERT ON public.conversations
    FOR EACH ROW EXECUTE FUNCTION public.conversations_adopt();
CREATE OR REPLACE TRIGGER conversations_adopt_on_switch AFTER UPDATE OF agent_slug ON public.conversations
    FOR EACH ROW WHEN (OLD.agent_slug IS DISTINCT FROM NEW.agent_slug) EXECUTE FUNCTION public.conversations_adopt();

-- As the owner too: tenants have no DELETE on agent_adoptions (nor the table lock it would allow).
CREATE OR REPLACE FUNCTION agents_forget_adoptions() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM public.agent_adoptions WHERE agent_id = OLD.id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER agents_forget_adoptions AFTER DELETE ON public.agents
    FOR EACH ROW EXECUTE FUNCTION public.agents_forget_adoptions();

CREATE OR REPLACE VIEW agent_uses WITH (security_invoker = true) AS
SELECT a.agent_id, count(*) AS uses
  FROM public.agent_adoptions a
 GROUP BY a.agent_id;

COMMENT ON VIEW agent_uses IS 'How many conversations adopted each agent. Under row-level security a tenant counts its own conversations only.';

-- A tenant reads its own conversations' adoptions; only adopt_conversation_agent writes them.
CREATE POLICY agent_adoptions_app_own ON public.agent_adoptions FOR SELECT TO registry_app
    USING (tenant_id = public.registry_current_tenant());
CREATE POLICY agent_adoptions_staff_all ON public.agent_adoptions FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);

-- Grants: privileges.sql.
