-- Revision 0007, undone: the size caps and the tenant-carrying adoption keys go; TEMP goes back
-- to PUBLIC; registry_admin leaves registry_service (the role itself stays: roles belong to the
-- cluster). No data is dropped.
ALTER TABLE agent_versions DROP CONSTRAINT agent_versions_replaced_by_length;
ALTER TABLE agents DROP CONSTRAINT agents_tool_profile_size;
ALTER TABLE agents DROP CONSTRAINT agents_requires_size;
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_conversation_fk;
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_pkey;
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_pkey PRIMARY KEY (conversation_id, agent_id);
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_conversation_fk FOREIGN KEY (conversation_id)
    REFERENCES conversations (id) ON DELETE CASCADE;
ALTER TABLE conversations DROP CONSTRAINT conversations_tenant_id_key;
DO $$
BEGIN
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database());
END
$$;
REVOKE registry_service FROM registry_admin;
