-- Revision 0014 down: the agents' keys by id again, as revision 0013 left them. The read policy
-- that tests key_tenant_id is a replaceable object, dropped before this runs (and re-created below
-- 0014 without it, sql/replaceable/agents_read_before_0014.sql). The column that goes is generated,
-- equal to scope_tenant_id on every row (nothing is lost, and `registry migrate --downgrade` says so
-- rather than asking):
-- derived column agents.key_tenant_id: a copy of agents.scope_tenant_id
ALTER TABLE agent_optouts DROP CONSTRAINT agent_optouts_agent_fk;
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_agent_fk;
ALTER TABLE agents DROP CONSTRAINT agents_key_tenant_id_scope_key;
ALTER TABLE agents DROP CONSTRAINT agents_key_tenant_id_key;
DROP STATISTICS agents_key_tenant_id_dependency;
ALTER TABLE agents DROP COLUMN key_tenant_id;
ALTER TABLE agents ADD CONSTRAINT agents_id_scope_key UNIQUE (id, scope_tenant_id, scope_project_id);
ALTER TABLE agents ADD CONSTRAINT agents_id_scope_tenant_key UNIQUE (id, scope_tenant_id);
ALTER TABLE agent_optouts ADD CONSTRAINT agent_optouts_agent_fk FOREIGN KEY (agent_id, agent_scope_tenant_id, agent_scope_project_id)
    REFERENCES agents (id, scope_tenant_id, scope_project_id) ON DELETE CASCADE;
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_agent_fk FOREIGN KEY (agent_id, scope_tenant_id)
    REFERENCES agents (id, scope_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;
