-- Revision 0002 — agent history. Every change of content bumps agents.version and keeps
-- the content it replaced here (trigger: sql/replaceable/agents_keep_history.sql).

CREATE TABLE agent_versions (
    agent_id     bigint NOT NULL,
    version      integer NOT NULL,
    name         text NOT NULL,
    description  text NOT NULL,
    when_to_use  text NOT NULL,
    requires     jsonb NOT NULL,
    instructions text NOT NULL,
    -- Who replaced this version, and when: the transaction's registry.actor setting when
    -- the Python layer sets one, else the database user.
    replaced_by  text NOT NULL,
    replaced_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT agent_versions_pkey PRIMARY KEY (agent_id, version),
    CONSTRAINT agent_versions_agent_fk FOREIGN KEY (agent_id) REFERENCES agents (id) ON DELETE CASCADE
);

COMMENT ON TABLE agent_versions IS 'Previous contents of each agent, one row per replaced version (kept by trigger on agents).';
COMMENT ON COLUMN agent_versions.replaced_by IS 'The registry.actor setting of the transaction that replaced this version, else the database user.';
