-- What each role may do, table by table (docs/security.md). Re-applied on every migration
-- run, since views are re-created and lose their grants. The rows each role sees are the
-- policies' business (policies.sql).
-- since revision 0003

GRANT USAGE ON SCHEMA public TO registry_app, registry_admin;

GRANT SELECT ON tenants TO registry_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON projects, agents, agent_optouts, agent_defaults, conversations
    TO registry_app;
GRANT SELECT, INSERT ON agent_versions TO registry_app;

GRANT SELECT, INSERT, UPDATE, DELETE
    ON tenants, projects, agents, agent_optouts, agent_defaults, conversations, agent_versions
    TO registry_admin;

GRANT SELECT ON scopes, effective_agents, effective_default_agent, conversation_agents
    TO registry_app, registry_admin;

GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO registry_app, registry_admin;
