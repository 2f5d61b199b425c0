-- Change notifications: every committed change to agents, opt-outs or defaults, and every change
-- of what a conversation runs with (a pin, an unpin, a deletion), is announced on the channel
-- registry_changes, from the database itself, so edits made in SQL notify too. PostgreSQL
-- delivers a NOTIFY only when (and if) its transaction commits. Payload (JSON):
--   {"table": "agents", "operation": "insert|update|delete", "tenant_id": 1 | null,
--    "project_id": 2 | null, "slug": "…" (official rows only, else null), "agent_id": 3,
--    "version": 4 | null}
-- A conversation's payload names its tenant and project and "conversation_id" (a cache of
-- resolved conversations, registry.cache, drops what it holds for them). A change of a scope's
-- dataset groups or glossary terms names only the table, its tenant and project: availability
-- follows from them (sql/replaceable/agent_missing.sql).

CREATE OR REPLACE FUNCTION notify_registry_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed record;
    payload jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    IF TG_TABLE_NAME = 'agents' THEN
        payload := jsonb_build_object('slug', changed.slug, 'agent_id', changed.id,
                                      'version', CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE changed.version END);
    ELSIF TG_TABLE_NAME = 'conversations' THEN
        payload := jsonb_build_object('slug', NULL, 'agent_id', NULL, 'version', NULL, 'conversation_id', changed.id);
    ELSIF TG_TABLE_NAME IN ('dataset_groups', 'glossary_terms') THEN
        -- What a scope has decides which agents are available there: a cached catalog of the
        -- tenant is stale. The name itself stays out of the payload (any login may LISTEN).
        payload := jsonb_build_object('slug', NULL, 'agent_id', NULL, 'version', NULL);
    ELSIF TG_TABLE_NAME = 'agent_optouts' THEN
        payload := jsonb_build_object('slug', (SELECT a.slug FROM public.agents a WHERE a.id = changed.agent_id),
                                      'agent_id', changed.agent_id, 'version', NULL);
    ELSE
        payload := jsonb_build_object('slug', changed.default_agent, 'agent_id', NULL, 'version', NULL);
    END IF;
    -- Any login may LISTEN (PostgreSQL has no privilege for it): a tenant's slugs stay out of the
    -- payload, which says only which tenant and which row changed. Official slugs are public.
    IF changed.tenant_id IS NOT NULL THEN
        payload := payload || jsonb_build_object('slug', NULL);
    END IF;
    PERFORM pg_notify('registry_changes', (payload || jsonb_build_object(
        'table', TG_TABLE_NAME, 'operation', lower(TG_OP),
        'tenant_id', changed.tenant_id, 'project_id', changed.project_id))::text);
    RETURN NULL;
END
$$;

COMMENT ON FUNCTION notify_registry_change() IS 'Trigger: announces a change on the registry_changes channel (delivered on commit).';

CREATE OR REPLACE TRIGGER agents_notify AFTER INSERT OR UPDATE OR DELETE ON public.agents
    FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
CREATE OR REPLACE TRIGGER agent_optouts_notify AFTER INSERT OR UPDATE OR DELETE ON public.agent_optouts
    FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
CREATE OR REPLACE TRIGGER agent_defaults_notify AFTER INSERT OR UPDATE OR DELETE ON public.agent_defaults
    FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
-- Starting a conversation changes no cached answer; what it runs with changes only by these.
CREATE OR REPLACE TRIGGER conversations_notify AFTER UPDATE OF tenant_id, project_id, agent_slug OR DELETE
    ON public.conversations FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
