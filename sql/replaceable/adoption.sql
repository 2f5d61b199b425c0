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
      FROM resolve_conversation_agent(p_conversation_id) r;
    IF v_agent_id IS NOT NULL THEN
        INSERT INTO agent_adoptions (conversation_id, agent_id, tenant_id)
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
    PERFORM adopt_conversation_agent(NEW.id);
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER conversations_adopt_on_start AFTER INSERT ON conversations
    FOR EACH ROW EXECUTE FUNCTION conversations_adopt();
CREATE OR REPLACE TRIGGER conversations_adopt_on_switch AFTER UPDATE OF agent_slug ON conversations
    FOR EACH ROW WHEN (OLD.agent_slug IS DISTINCT FROM NEW.agent_slug) EXECUTE FUNCTION conversations_adopt();

CREATE OR REPLACE FUNCTION agents_forget_adoptions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM agent_adoptions WHERE agent_id = OLD.id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER agents_forget_adoptions AFTER DELETE ON agents
    FOR EACH ROW EXECUTE FUNCTION agents_forget_adoptions();

CREATE OR REPLACE VIEW agent_uses WITH (security_invoker = true) AS
SELECT a.agent_id, count(*) AS uses
  FROM agent_adoptions a
 GROUP BY a.agent_id;

COMMENT ON VIEW agent_uses IS 'How many conversations adopted each agent. Under row-level security a tenant counts its own conversations only.';

CREATE POLICY agent_adoptions_app_own ON agent_adoptions FOR ALL TO registry_app
    USING (tenant_id = registry_current_tenant()) WITH CHECK (tenant_id = registry_current_tenant());
CREATE POLICY agent_adoptions_staff_all ON agent_adoptions FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);

GRANT SELECT, INSERT, DELETE ON agent_adoptions TO registry_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON agent_adoptions TO registry_admin;
GRANT SELECT ON agent_uses TO registry_app, registry_admin;
