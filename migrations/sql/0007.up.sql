-- Revision 0007 — the hostile tenant (docs/security.md): nothing a tenant creates outlives its
-- transaction, no key tells one tenant about another's rows, every size is capped here.

-- No temporary objects for tenants. TEMP is PUBLIC's by default, so it is revoked from PUBLIC
-- (every role of this database) and given back to the registry's own staff roles only: a temp
-- view named "agents" would shadow public.agents for the rest of a pooled connection's life.
-- Needs the database's owner or a superuser; anyone else gets a warning and must ask a DBA.
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO registry_owner, registry_admin', current_database());
END
$$;

-- The schema: tenants create nothing in it, and the registry's roles get USAGE from whoever runs
-- the migration (the schema's owner or a superuser), so a database where PUBLIC lost USAGE on
-- public (REVOKE ALL ON SCHEMA public FROM PUBLIC) still works.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO registry_owner, registry_admin, registry_app;

-- Who may name the tenant (docs/security.md). registry.tenant_id is a setting any session can
-- change, so the setting alone cannot be the boundary: registry_current_tenant() takes it only
-- from a login that is a member of registry_service (a back-office service that derives the
-- tenant from its own authenticated user; staff through registry_admin) or of the tenant's own
-- role registry_tenant_<id> (a login a tenant holds itself). Anyone else sees nothing.
DO $$
DECLARE
    login record;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_service') THEN
        CREATE ROLE registry_service NOLOGIN;
    END IF;
    -- Logins that already held registry_app were trusted to name tenants: they keep doing so.
    -- Review this list after the upgrade (docs/dba.md).
    FOR login IN SELECT m.member::regrole::text AS name FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
                  WHERE m.roleid = 'registry_app'::regrole AND r.rolcanlogin LOOP
        EXECUTE format('GRANT registry_service TO %I', login.name);
    END LOOP;
END
$$;
GRANT registry_service TO registry_admin;

-- Adoptions carry their tenant in every key: a tenant's row can only name its own
-- conversation (composite foreign key), and its key cannot collide with another tenant's, so
-- "B's conversation" and "no such conversation" fail alike and B's adoptions cannot be
-- pre-empted.
ALTER TABLE conversations ADD CONSTRAINT conversations_tenant_id_key UNIQUE (tenant_id, id);
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_conversation_fk;
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_pkey;
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_pkey PRIMARY KEY (conversation_id, agent_id, tenant_id);
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_conversation_fk FOREIGN KEY (tenant_id, conversation_id)
    REFERENCES conversations (tenant_id, id) ON DELETE CASCADE;

-- History is written by its (SECURITY DEFINER) trigger only: tenants lose their INSERT policy.
DROP POLICY IF EXISTS agent_versions_app_write ON agent_versions;

-- Sizes: every text a tenant writes is capped in the database (registry/limits.py holds the
-- same numbers; tests/test_limits.py compares them).
ALTER TABLE agents ADD CONSTRAINT agents_requires_size CHECK (
    jsonb_array_length(jsonb_path_query_array(requires, '$.keyvalue()')) <= 8
    AND NOT jsonb_path_exists(requires, 'strict $.keyvalue() ? (@.key like_regex "^.{41}" flag "s")')
    AND NOT jsonb_path_exists(requires, 'strict $.* ? (@.size() > 64)')
    AND NOT jsonb_path_exists(requires, 'strict $.*[*] ? (@ like_regex "^.{121}" flag "s")'));
ALTER TABLE agents ADD CONSTRAINT agents_tool_profile_size CHECK (octet_length(tool_profile::text) <= 20000);
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_replaced_by_length CHECK (char_length(replaced_by) <= 120);
