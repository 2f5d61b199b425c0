-- Revision 0008 — requirements and availability, explained resolution, the version each
-- conversation ran on (docs/adr/0012-availability.md).

-- Revision 0008: what a scope has (docs/design.md, "Resolution rules", rule 7). An agent's
-- `requires` names dataset groups and glossary terms; a tenant lists the ones it has, a project
-- adds its own (project rows add to the tenant's, they never remove). There is no official
-- layer: groups are per customer and not standardised (the seed's own example: one customer's
-- "financeiro" is another's "financas"). Names match after case folding and NFC, and nothing
-- else: no accent or synonym folding, so "financas" never stands in for "financeiro". The key
-- is a generated column, so a row written in SQL is matched exactly as one written in Python.
CREATE TABLE dataset_groups (
    tenant_id        bigint NOT NULL,
    project_id       bigint NULL,
    scope_project_id bigint GENERATED ALWAYS AS (COALESCE(project_id, 0)) STORED,
    layer            text GENERATED ALWAYS AS (
                         CASE WHEN project_id IS NOT NULL THEN 'project' ELSE 'tenant' END) STORED,
    name             text NOT NULL,
    name_key         text GENERATED ALWAYS AS (normalize(lower(name), NFC)) STORED,
    created_at       timestamptz NOT NULL DEFAULT now(),
    -- The key availability probes: (tenant, 0 or the project, the requirement's key).
    CONSTRAINT dataset_groups_pkey PRIMARY KEY (tenant_id, scope_project_id, name_key),
    CONSTRAINT dataset_groups_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT dataset_groups_project_fk FOREIGN KEY (tenant_id, project_id)
        REFERENCES projects (tenant_id, id) ON DELETE CASCADE,
    -- The size of one of requires' strings (registry/limits.py); no surrounding blanks or
    -- control characters, which no requirement could be written to match.
    CONSTRAINT dataset_groups_name_format CHECK (
        char_length(name) BETWEEN 1 AND 120 AND name !~ '^\s|\s$' AND name !~ '[\x01-\x1f\x7f]')
);

COMMENT ON TABLE dataset_groups IS 'The dataset groups a tenant has (project_id NULL) and a project adds. An agent whose requires names a group its scope lacks is reported unavailable there.';
COMMENT ON COLUMN dataset_groups.project_id IS 'NULL = the tenant''s, in every project; set = this project''s addition.';
COMMENT ON COLUMN dataset_groups.scope_project_id IS 'COALESCE(project_id, 0): the layer key the primary key can see.';
COMMENT ON COLUMN dataset_groups.name_key IS 'normalize(lower(name), NFC): what requirements are matched against. No accent or synonym folding.';

ALTER TABLE dataset_groups OWNER TO registry_owner;
ALTER TABLE dataset_groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE dataset_groups FORCE ROW LEVEL SECURITY;

CREATE TABLE glossary_terms (
    tenant_id        bigint NOT NULL,
    project_id       bigint NULL,
    scope_project_id bigint GENERATED ALWAYS AS (COALESCE(project_id, 0)) STORED,
    layer            text GENERATED ALWAYS AS (
                         CASE WHEN project_id IS NOT NULL THEN 'project' ELSE 'tenant' END) STORED,
    name             text NOT NULL,
    name_key         text GENERATED ALWAYS AS (normalize(lower(name), NFC)) STORED,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT glossary_terms_pkey PRIMARY KEY (tenant_id, scope_project_id, name_key),
    CONSTRAINT glossary_terms_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT glossary_terms_project_fk FOREIGN KEY (tenant_id, project_id)
        REFERENCES projects (tenant_id, id) ON DELETE CASCADE,
    CONSTRAINT glossary_terms_name_format CHECK (
        char_length(name) BETWEEN 1 AND 120 AND name !~ '^\s|\s$' AND name !~ '[\x01-\x1f\x7f]')
);

COMMENT ON TABLE glossary_terms IS 'The glossary terms a tenant has (project_id NULL) and a project adds. An agent whose requires names a term its scope lacks is reported unavailable there.';
COMMENT ON COLUMN glossary_terms.project_id IS 'NULL = the tenant''s, in every project; set = this project''s addition.';
COMMENT ON COLUMN glossary_terms.scope_project_id IS 'COALESCE(project_id, 0): the layer key the primary key can see.';
COMMENT ON COLUMN glossary_terms.name_key IS 'normalize(lower(name), NFC): what requirements are matched against. No accent or synonym folding.';

ALTER TABLE glossary_terms OWNER TO registry_owner;
ALTER TABLE glossary_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE glossary_terms FORCE ROW LEVEL SECURITY;

-- The history of both: every name added or removed, by whom and when, written by a trigger as
-- the owner (sql/replaceable/vocabulary.sql), so a console user's INSERT is kept too and a
-- tenant cannot forge an entry. No foreign key to projects: a removed project's entries stay
-- until its tenant goes.
CREATE TABLE vocabulary_changes (
    id          bigint GENERATED ALWAYS AS IDENTITY,
    tenant_id   bigint NOT NULL,
    project_id  bigint NULL,
    kind        text NOT NULL,
    name        text NOT NULL,
    change      text NOT NULL,
    changed_by  text NOT NULL,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT vocabulary_changes_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT vocabulary_changes_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT vocabulary_changes_kind_known CHECK (kind IN ('group', 'term')),
    CONSTRAINT vocabulary_changes_change_known CHECK (change IN ('added', 'removed')),
    CONSTRAINT vocabulary_changes_name_length CHECK (char_length(name) <= 120),
    CONSTRAINT vocabulary_changes_changed_by_length CHECK (char_length(changed_by) <= 120)
);

COMMENT ON TABLE vocabulary_changes IS 'Every dataset group and glossary term added or removed, per tenant (kept by trigger).';
COMMENT ON COLUMN vocabulary_changes.changed_by IS 'The registry.actor setting of the transaction, else the database user.';

ALTER TABLE vocabulary_changes OWNER TO registry_owner;
ALTER TABLE vocabulary_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE vocabulary_changes FORCE ROW LEVEL SECURITY;

-- Revision 0008: the version a conversation ran on. The adoption records the agent's version
-- when it was adopted, and the fingerprint (sha256) of the system prompt framed with it once a
-- prompt is built (adopt_conversation_agent's second argument). NULL for adoptions recorded
-- before this revision, and for the fingerprint until a prompt is built.
ALTER TABLE agent_adoptions ADD COLUMN version integer NULL;
ALTER TABLE agent_adoptions ADD COLUMN fingerprint text NULL;
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_version_positive CHECK (version >= 1);
ALTER TABLE agent_adoptions ADD CONSTRAINT agent_adoptions_fingerprint_format CHECK (fingerprint ~ '^[0-9a-f]{64}$');
COMMENT ON COLUMN agent_adoptions.version IS 'The agent''s version when the conversation adopted it (NULL: adopted before revision 0008).';
COMMENT ON COLUMN agent_adoptions.fingerprint IS 'sha256 of the system prompt framed with that version, recorded when the first prompt is built.';
