-- Revision 0012 — the history tables carry the tenant their read policy tests (hostile-tenant
-- round 7, #20-#23; docs/security.md, "EXPLAIN ANALYZE row counts"; ADR 0020). Each version row
-- gets its agent's or convention's scope_tenant_id (0 = the official layer), first in its primary
-- key, and a foreign key to the parent's new (id, scope_tenant_id) key that keeps it equal to the
-- parent's. The read policies (`scope_tenant_id = ANY (visible tenants)`, no EXISTS) and the
-- history triggers that fill the column are replaceable objects (sql/replaceable/
-- agents_keep_history.sql, conventions_keep_history.sql). The same definitions are in
-- sql/tables.sql, where the reason is written out.

-- The parents' keys the history's foreign keys target. Keys by id, as agents_id_scope_key: one
-- that led with scope_tenant_id would compete with agents_layer_slug_key for a layer's rows, and
-- the planner took it, leaving the slug out of the index condition (tests/test_plans.py).
ALTER TABLE agents ADD CONSTRAINT agents_id_scope_tenant_key UNIQUE (id, scope_tenant_id);
ALTER TABLE conventions ADD CONSTRAINT conventions_id_scope_tenant_key UNIQUE (id, scope_tenant_id);

-- The backfill reads every tenant's rows. Every run drops the policies before a revision runs
-- (they are replaceable), and FORCE ROW LEVEL SECURITY holds the owner to them: with none, an
-- owner that is not a superuser would see no row. Off for these statements only: the change is
-- this transaction's, switched back on before it commits, so no other session ever reads a table
-- without it (and each is locked ACCESS EXCLUSIVE until the commit).
ALTER TABLE agents DISABLE ROW LEVEL SECURITY;
ALTER TABLE agent_versions DISABLE ROW LEVEL SECURITY;
ALTER TABLE conventions DISABLE ROW LEVEL SECURITY;
ALTER TABLE convention_versions DISABLE ROW LEVEL SECURITY;

ALTER TABLE agent_versions ADD COLUMN scope_tenant_id bigint;
UPDATE agent_versions v SET scope_tenant_id = a.scope_tenant_id FROM agents a WHERE a.id = v.agent_id;
ALTER TABLE agent_versions ALTER COLUMN scope_tenant_id SET NOT NULL;
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_agent_fk;
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_pkey;
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_pkey PRIMARY KEY (scope_tenant_id, agent_id, version);
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_agent_fk FOREIGN KEY (agent_id, scope_tenant_id)
    REFERENCES agents (id, scope_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;
COMMENT ON COLUMN agent_versions.scope_tenant_id IS 'The agent''s scope_tenant_id (0 = official layer), written by the history trigger and kept equal to the agent''s by agent_versions_agent_fk: what the read policy tests.';

ALTER TABLE convention_versions ADD COLUMN scope_tenant_id bigint;
UPDATE convention_versions v SET scope_tenant_id = c.scope_tenant_id FROM conventions c WHERE c.id = v.convention_id;
ALTER TABLE convention_versions ALTER COLUMN scope_tenant_id SET NOT NULL;
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_convention_fk;
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_pkey;
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_pkey PRIMARY KEY (scope_tenant_id, convention_id, version);
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_convention_fk FOREIGN KEY (convention_id, scope_tenant_id)
    REFERENCES conventions (id, scope_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;
COMMENT ON COLUMN convention_versions.scope_tenant_id IS 'The convention''s scope_tenant_id (0 = official layer), written by the history trigger and kept equal to the convention''s by convention_versions_convention_fk: what the read policy tests.';

ALTER TABLE agents ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE conventions ENABLE ROW LEVEL SECURITY;
ALTER TABLE convention_versions ENABLE ROW LEVEL SECURITY;
