-- Revision 0015 — the conversations' primary key holds the tenant (hostile-tenant round 10, R01;
-- docs/security.md, "Hostile round 10"; ADRs 0020 and 0021). conversations_pkey (id) held no
-- tenant, so a read by id planned on it (with bitmap scans, or at 100,002 conversations at
-- default settings) ran the read policy `tenant_id = (SELECT registry_current_tenant())` as a
-- filter over the row it fetched: EXPLAIN ANALYZE's "Rows Removed by Filter" and idx_tup_fetch
-- counted another tenant's conversation (1 for its id, 0 for a missing one). As (id, tenant_id)
-- the policy's equality is an index condition on it, as on every other key of the table; staff's
-- reads by id alone keep it (the id leads). Nothing references it: agent_adoptions' foreign key
-- targets conversations_tenant_id_key (tenant_id, id).
--
-- No index holds the id alone after this, so no index makes it unique: the identity does. It
-- becomes GENERATED ALWAYS (an INSERT naming an id, or an UPDATE to one, fails for every role;
-- privileges.sql leaves id out of staff's INSERT, so OVERRIDING SYSTEM VALUE is the owner's and a
-- superuser's only, as COPY, which restores and the benchmark's generator use). Every existing id
-- was unique under the old key; the sequence goes on from where it is.
--
-- The new key is built over every conversation and the old one dropped, with conversations locked
-- ACCESS EXCLUSIVE until the commit: docs/dba.md.
ALTER TABLE conversations DROP CONSTRAINT conversations_pkey;
ALTER TABLE conversations ADD CONSTRAINT conversations_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE conversations ALTER COLUMN id SET GENERATED ALWAYS;
COMMENT ON COLUMN conversations.id IS 'Drawn from the identity only (GENERATED ALWAYS; no registry role may write it): unique by the sequence, since no key holds the id without the tenant.';
