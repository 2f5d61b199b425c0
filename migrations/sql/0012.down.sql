-- Revision 0012, undone: the history tables keyed by their parent's id alone, as in 0011, with
-- the simple foreign keys back. Every version row stays; the column that goes is a copy of its
-- parent's scope_tenant_id, which the foreign key kept equal to it (nothing is lost, and
-- `registry migrate --downgrade` says so rather than asking):
-- derived column agent_versions.scope_tenant_id: a copy of agents.scope_tenant_id
-- derived column convention_versions.scope_tenant_id: a copy of conventions.scope_tenant_id
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_convention_fk;
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_pkey;
ALTER TABLE convention_versions DROP COLUMN scope_tenant_id;
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_pkey PRIMARY KEY (convention_id, version);
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_convention_fk FOREIGN KEY (convention_id)
    REFERENCES conventions (id) ON DELETE CASCADE;

ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_agent_fk;
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_pkey;
ALTER TABLE agent_versions DROP COLUMN scope_tenant_id;
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_pkey PRIMARY KEY (agent_id, version);
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_agent_fk FOREIGN KEY (agent_id) REFERENCES agents (id) ON DELETE CASCADE;

ALTER TABLE conventions DROP CONSTRAINT conventions_id_scope_tenant_key;
ALTER TABLE agents DROP CONSTRAINT agents_id_scope_tenant_key;
