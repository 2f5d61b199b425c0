-- Revision 0011, undone: the scope indexes without the tenant, the project's foreign key of agents on tenant_id.
DROP INDEX conversations_project_idx;
CREATE INDEX conversations_project_idx ON conversations (project_id) WHERE project_id IS NOT NULL;

DROP INDEX agent_optouts_agent_idx;
CREATE INDEX agent_optouts_agent_idx ON agent_optouts (agent_id);
ALTER TABLE agent_optouts DROP CONSTRAINT agent_optouts_pkey;
ALTER TABLE agent_optouts ADD CONSTRAINT agent_optouts_pkey PRIMARY KEY (project_id, agent_id);

DROP INDEX agents_project_idx;
CREATE INDEX agents_project_idx ON agents (project_id) WHERE project_id IS NOT NULL;
ALTER TABLE agents DROP CONSTRAINT agents_project_fk;
ALTER TABLE agents ADD CONSTRAINT agents_project_fk FOREIGN KEY (tenant_id, project_id)
    REFERENCES projects (tenant_id, id) ON DELETE CASCADE;
