-- Adoption (docs/design.md, "Resolution rules", rule 6): a conversation adopts the agent it runs with, once per
-- (conversation, agent). The trigger records it when a conversation starts or changes its
-- agent_slug; a service calls adopt_conversation_agent(id) when it answers a question, which
-- also records an implicit switch (a default that changed) and is a no-op otherwise.
-- since revision 0004

-- adopt_conversation_agent itself: adopt_conversation_agent.sql (and its stand-in below revision
-- 0008, adopt_conversation_agent_before_0008.sql).

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
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
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
