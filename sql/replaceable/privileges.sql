-- What each role may do, table by table (docs/security.md). Re-applied on every migration
-- run, since views are re-created and lose their grants. The rows each role sees are the
-- policies' business (policies.sql); the columns the app may write are listed here.
-- since revision 0007

-- Start from nothing, so a privilege removed from this file is removed from the database too.
REVOKE ALL ON public.tenants, public.projects, public.agents, public.agent_optouts, public.agent_defaults,
              public.conversations, public.agent_versions, public.agent_adoptions
    FROM registry_app;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM registry_app;

-- registry_app: ids, scope keys, generated columns and timestamps are the database's, never
-- the tenant's. No explicit ids (they would tell a tenant another's id exists, or squat the
-- next ones) and no sequences (nextval and pg_sequences would reveal global counts).
-- No table-level DELETE or UPDATE either: either one lets a login LOCK a table in ACCESS
-- EXCLUSIVE mode and stall every tenant; column-level INSERT and UPDATE allow no such lock.
-- Deletes go through the functions of deletes.sql.
GRANT SELECT ON public.tenants TO registry_app;
GRANT SELECT ON public.projects, public.agents, public.agent_optouts, public.agent_defaults, public.conversations
    TO registry_app;
GRANT INSERT (tenant_id, slug, name, instruction_file),
      UPDATE (slug, name, instruction_file) ON public.projects TO registry_app;
GRANT INSERT (tenant_id, project_id, slug, name, description, when_to_use, requires, instructions, status,
              enabled, note, created_by, tool_profile),
      UPDATE (name, description, when_to_use, requires, instructions, status, enabled, note, tool_profile)
    ON public.agents TO registry_app;
GRANT INSERT (project_id, agent_id) ON public.agent_optouts TO registry_app;
GRANT INSERT (tenant_id, project_id, default_agent), UPDATE (default_agent) ON public.agent_defaults TO registry_app;
GRANT INSERT (tenant_id, project_id, slug, title, agent_slug), UPDATE (slug, title, agent_slug)
    ON public.conversations TO registry_app;
-- History is written by a SECURITY DEFINER trigger (agents_keep_history.sql): read only here.
GRANT SELECT ON public.agent_versions TO registry_app;
-- Adoptions are written by adopt_conversation_agent and its triggers only (adoption.sql).
GRANT SELECT ON public.agent_adoptions TO registry_app;

GRANT SELECT, INSERT, UPDATE, DELETE
    ON public.tenants, public.projects, public.agents, public.agent_optouts, public.agent_defaults,
       public.agent_versions, public.agent_adoptions
    TO registry_admin;
-- A conversation's id is the identity's alone (revision 0015, ADR 0021): no key holds the id
-- without the tenant, so nothing but the sequence keeps ids unique. Staff insert every column but
-- id, so not even OVERRIDING SYSTEM VALUE lets them name one (the owner and superusers still can:
-- restores, the benchmark's generator). The REVOKE takes back a table-wide INSERT granted before.
REVOKE INSERT ON public.conversations FROM registry_admin;
GRANT SELECT, UPDATE, DELETE ON public.conversations TO registry_admin;
GRANT INSERT (tenant_id, project_id, slug, title, agent_slug, created_at, updated_at) ON public.conversations
    TO registry_admin;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO registry_admin;

GRANT SELECT ON public.scopes, public.effective_agents, public.effective_default_agent, public.conversation_agents,
                public.agent_uses, public.agent_explanations
    TO registry_app, registry_admin;
-- The vocabulary of scopes (revision 0008) has its grants in vocabulary.sql.
