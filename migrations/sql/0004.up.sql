-- Revision 0004 — adoption counted without hot rows (agent_adoptions; the agent_uses view).

CREATE TABLE agent_adoptions (
    conversation_id bigint NOT NULL,
    agent_id        bigint NOT NULL,
    tenant_id       bigint NOT NULL,
    adopted_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT agent_adoptions_pkey PRIMARY KEY (conversation_id, agent_id),
    CONSTRAINT agent_adoptions_conversation_fk FOREIGN KEY (conversation_id)
        REFERENCES conversations (id) ON DELETE CASCADE
);

CREATE INDEX agent_adoptions_agent_idx ON agent_adoptions (agent_id, tenant_id);

COMMENT ON TABLE agent_adoptions IS 'Which agents each conversation adopted: once per conversation and agent. Counted by agent_uses.';
COMMENT ON COLUMN agent_adoptions.tenant_id IS 'The conversation''s tenant: row-level security shows a tenant its own conversations'' adoptions only.';
COMMENT ON COLUMN agents.uses IS 'Not maintained (kept from the seed schema): a counter on the agent''s row would be a hot row. Read agent_uses.';

ALTER TABLE agent_adoptions OWNER TO registry_owner;
ALTER TABLE agent_adoptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_adoptions FORCE ROW LEVEL SECURITY;
