-- Adoption (DESIGN §4.6): a conversation adopts the agent it runs with, once per
-- (conversation, agent). The trigger records it when a conversation starts or changes its
-- agent_slug; a service calls adopt_conversation_agent(id) when it answers a question, which
-- also records an implicit switch (a default that changed) and is a no-op otherwise.
-- since revision 0004

CREATE OR REPLACE FUNCTION adopt_conversation_agent(p_conversation_id bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined is planned again on every call from
-- a new statement (each question, each trigger firing), ~0.45 ms for this resolution; PL/pgSQL
-- keeps its statements' plans for the session.
DECLARE
    v_agent_id  bigint;
    v_tenant_id bigint;
BEGIN
    SELECT r.agent_id, r.tenant_id INTO v_agent_id, v_tenant_id
      FROM public.resolve_conversation_agent(p_conversation_id) r;
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

CREATE OR REPLACE FUNCTION agents_forget_adoptions() RETURNS trigger
LANGUAGE plpgsql AS $$
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

-- A tenant records adoptions only for its own conversations (the composite foreign key) and
-- agents it can see (official or its own: the EXISTS runs under the tenant's own policies).
CREATE POLICY agent_adoptions_app_own ON public.agent_adoptions FOR ALL TO registry_app
    USING (tenant_id = public.registry_current_tenant())
    WITH CHECK (tenant_id = public.registry_current_tenant()
                AND EXISTS (SELECT 1 FROM public.agents a WHERE a.id = agent_adoptions.agent_id));
CREATE POLICY agent_adoptions_staff_all ON public.agent_adoptions FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);

-- Grants: privileges.sql.
