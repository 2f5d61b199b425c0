-- Revision 0011 — the indexes a tenant's EXPLAIN ANALYZE could count another tenant's rows
-- through (hostile-tenant round 7, #20-#23; docs/security.md, "EXPLAIN ANALYZE row counts").
-- Each now holds the column its table's read policy tests, so the policy is an index condition
-- and another tenant's rows are never fetched to be filtered. The policies themselves are
-- replaceable objects (sql/replaceable/policies.sql, conventions.sql). The same definitions are
-- in sql/tables.sql, where the reason is written out.

-- agents: a project's rows by (scope_tenant_id, project_id), the column the read policy's
-- `= ANY` leads with; the project's foreign key names scope_tenant_id (equal to tenant_id on
-- every project row), so the cascade of a deleted project still probes this index.
ALTER TABLE agents DROP CONSTRAINT agents_project_fk;
ALTER TABLE agents ADD CONSTRAINT agents_project_fk FOREIGN KEY (scope_tenant_id, project_id)
    REFERENCES projects (tenant_id, id) ON DELETE CASCADE;
DROP INDEX agents_project_idx;
CREATE INDEX agents_project_idx ON agents (scope_tenant_id, project_id) WHERE project_id IS NOT NULL;

-- agent_optouts: the tenant in both keys (the project decides it, so uniqueness is unchanged).
ALTER TABLE agent_optouts DROP CONSTRAINT agent_optouts_pkey;
ALTER TABLE agent_optouts ADD CONSTRAINT agent_optouts_pkey PRIMARY KEY (project_id, agent_id, tenant_id);
DROP INDEX agent_optouts_agent_idx;
CREATE INDEX agent_optouts_agent_idx ON agent_optouts (agent_id, tenant_id);

-- conversations: a project's conversations with their tenant.
DROP INDEX conversations_project_idx;
CREATE INDEX conversations_project_idx ON conversations (project_id, tenant_id) WHERE project_id IS NOT NULL;

