-- Revision 0008, undone: the vocabulary of scopes and its history go (their rows with them, which
-- `registry migrate --downgrade` lists first), and adoptions forget the version and fingerprint.
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_fingerprint_format;
ALTER TABLE agent_adoptions DROP CONSTRAINT agent_adoptions_version_positive;
ALTER TABLE agent_adoptions DROP COLUMN fingerprint;
ALTER TABLE agent_adoptions DROP COLUMN version;
DROP TABLE vocabulary_changes;
DROP TABLE glossary_terms;
DROP TABLE dataset_groups;
