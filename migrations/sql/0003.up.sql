-- Revision 0003 — tenant isolation: roles, ownership, row-level security (docs/security.md).
-- The policies and grants themselves are replaceable: sql/replaceable/policies.sql, privileges.sql.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_owner') THEN
        CREATE ROLE registry_owner NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_admin') THEN
        CREATE ROLE registry_admin NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_app') THEN
        CREATE ROLE registry_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
END
$$;

-- The owner creates the replaceable objects (views, functions, policies) in this schema.
GRANT USAGE, CREATE ON SCHEMA public TO registry_owner;

ALTER TABLE tenants OWNER TO registry_owner;
ALTER TABLE projects OWNER TO registry_owner;
ALTER TABLE agents OWNER TO registry_owner;
ALTER TABLE agent_optouts OWNER TO registry_owner;
ALTER TABLE agent_defaults OWNER TO registry_owner;
ALTER TABLE conversations OWNER TO registry_owner;
ALTER TABLE agent_versions OWNER TO registry_owner;

-- FORCE, so the owner's own queries obey the policies too (it has a policy of its own).
-- The policies are in sql/replaceable/policies.sql: with no tenant set, they show nothing.
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
ALTER TABLE projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE projects FORCE ROW LEVEL SECURITY;
ALTER TABLE agents ENABLE ROW LEVEL SECURITY;
ALTER TABLE agents FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_optouts ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_optouts FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_defaults ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_defaults FORCE ROW LEVEL SECURITY;
ALTER TABLE conversations ENABLE ROW LEVEL SECURITY;
ALTER TABLE conversations FORCE ROW LEVEL SECURITY;
ALTER TABLE agent_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_versions FORCE ROW LEVEL SECURITY;
