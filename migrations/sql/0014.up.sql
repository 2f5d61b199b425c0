-- Revision 0014 — the agents' two foreign-key targets lead with a tenant column (hostile-tenant
-- round 9, R16; docs/security.md, "EXPLAIN ANALYZE row counts"; ADR 0020). Led by the id,
-- agents_id_scope_tenant_key (id, scope_tenant_id) and agents_id_scope_key (id, scope_tenant_id,
-- scope_project_id) took a caller's own `scope_tenant_id = N` as an index condition over the whole
-- index and left the read policy a filter: EXPLAIN ANALYZE counted another tenant's agents as
-- "Rows Removed by Filter" (and, with `id = X`, told whose agent X is).
--
-- Led by scope_tenant_id itself they compete with agents_layer_slug_key for the slug probes
-- (sql/replaceable/winning_agent.sql): under the read policy every estimate of a layer's rows
-- falls to one row, and the key with fewer index conditions costs less (47.07 against 47.09 on
-- tests/test_plans.py's data) and leaves the slug a filter. So they lead with key_tenant_id, a
-- second generated copy of COALESCE(tenant_id, 0) that no resolution, view or function names:
-- its only index condition is the read policy's, which now tests both columns
-- (sql/replaceable/agents_read.sql), and a probe of a layer always holds more on
-- agents_layer_slug_key. The foreign keys keep their columns and actions; only the key they
-- target, and the column of it that holds the agent's tenant, change.
--
-- Adding a stored generated column rewrites agents (ACCESS EXCLUSIVE until the commit), and the
-- two keys are built and both foreign keys validated over every opt-out and version: docs/dba.md.
ALTER TABLE agent_optouts DROP CONSTRAINT agent_optouts_agent_fk;
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_agent_fk;
ALTER TABLE agents DROP CONSTRAINT agents_id_scope_key;
ALTER TABLE agents DROP CONSTRAINT agents_id_scope_tenant_key;
ALTER TABLE agents ADD COLUMN key_tenant_id bigint GENERATED ALWAYS AS (COALESCE(tenant_id, 0)) STORED;
COMMENT ON COLUMN agents.key_tenant_id IS 'COALESCE(tenant_id, 0) again, equal to scope_tenant_id: the first column of the keys agent_versions'' and agent_optouts'' foreign keys target. No resolution names it, so those keys never compete with agents_layer_slug_key; the read policy tests it too.';
ALTER TABLE agents ADD CONSTRAINT agents_key_tenant_id_key UNIQUE (key_tenant_id, id);
ALTER TABLE agents ADD CONSTRAINT agents_key_tenant_id_scope_key UNIQUE (key_tenant_id, id, scope_project_id);
ALTER TABLE agent_optouts ADD CONSTRAINT agent_optouts_agent_fk FOREIGN KEY (agent_id, agent_scope_tenant_id, agent_scope_project_id)
    REFERENCES agents (id, key_tenant_id, scope_project_id) ON DELETE CASCADE;
ALTER TABLE agent_versions ADD CONSTRAINT agent_versions_agent_fk FOREIGN KEY (agent_id, scope_tenant_id)
    REFERENCES agents (id, key_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;
-- The planner learns that key_tenant_id follows from scope_tenant_id, so the policy's second
-- `= ANY` does not shrink its estimates of a tenant's rows again (sql/tables.sql says what it cost);
-- ANALYZE builds those statistics, and key_tenant_id's own, before anyone plans on the new column.
CREATE STATISTICS agents_key_tenant_id_dependency (dependencies) ON scope_tenant_id, key_tenant_id FROM agents;
ALTER STATISTICS agents_key_tenant_id_dependency OWNER TO registry_owner;
ANALYZE agents;
