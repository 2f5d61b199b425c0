-- Revision 0003, undone: row-level security off, privileges revoked, tables back to the
-- migrating user. The roles stay: they belong to the cluster and may serve other databases
-- (drop them by hand with DROP ROLE once nothing uses them).
ALTER TABLE tenants NO FORCE ROW LEVEL SECURITY;
ALTER TABLE tenants DISABLE ROW LEVEL SECURITY;
ALTER TABLE projects NO FORCE ROW LEVEL SECURITY;
ALTER TABLE projects DISABLE ROW LEVEL SECURITY;
ALTER TABLE agents NO FORCE ROW LEVEL SECURITY;
ALTER TABLE agents DISABLE ROW LEVEL SECURITY;
ALTER TABLE agent_optouts NO FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_optouts DISABLE ROW LEVEL SECURITY;
ALTER TABLE agent_defaults NO FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_defaults DISABLE ROW LEVEL SECURITY;
ALTER TABLE conversations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE conversations DISABLE ROW LEVEL SECURITY;
ALTER TABLE agent_versions NO FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_versions DISABLE ROW LEVEL SECURITY;

REVOKE ALL ON tenants, projects, agents, agent_optouts, agent_defaults, conversations, agent_versions
    FROM registry_app, registry_admin;

ALTER TABLE tenants OWNER TO CURRENT_USER;
ALTER TABLE projects OWNER TO CURRENT_USER;
ALTER TABLE agents OWNER TO CURRENT_USER;
ALTER TABLE agent_optouts OWNER TO CURRENT_USER;
ALTER TABLE agent_defaults OWNER TO CURRENT_USER;
ALTER TABLE conversations OWNER TO CURRENT_USER;
ALTER TABLE agent_versions OWNER TO CURRENT_USER;

REVOKE USAGE, CREATE ON SCHEMA public FROM registry_owner;
