-- Revision 0010 — no planner statistics on what customers write (hostile-tenant round 6, #1;
-- docs/security.md). The same statements end sql/tables.sql, where the reason is written out.
ALTER TABLE tenants ALTER COLUMN slug SET STATISTICS 0, ALTER COLUMN name SET STATISTICS 0;
ALTER TABLE projects ALTER COLUMN slug SET STATISTICS 0, ALTER COLUMN name SET STATISTICS 0,
    ALTER COLUMN instruction_file SET STATISTICS 0;
ALTER TABLE agents ALTER COLUMN slug SET STATISTICS 0, ALTER COLUMN name SET STATISTICS 0,
    ALTER COLUMN description SET STATISTICS 0, ALTER COLUMN when_to_use SET STATISTICS 0,
    ALTER COLUMN requires SET STATISTICS 0, ALTER COLUMN instructions SET STATISTICS 0,
    ALTER COLUMN note SET STATISTICS 0, ALTER COLUMN created_by SET STATISTICS 0,
    ALTER COLUMN tool_profile SET STATISTICS 0;
ALTER TABLE agent_defaults ALTER COLUMN default_agent SET STATISTICS 0;
ALTER TABLE conversations ALTER COLUMN slug SET STATISTICS 0, ALTER COLUMN title SET STATISTICS 0,
    ALTER COLUMN agent_slug SET STATISTICS 0;
ALTER TABLE agent_versions ALTER COLUMN name SET STATISTICS 0, ALTER COLUMN description SET STATISTICS 0,
    ALTER COLUMN when_to_use SET STATISTICS 0, ALTER COLUMN requires SET STATISTICS 0,
    ALTER COLUMN instructions SET STATISTICS 0, ALTER COLUMN replaced_by SET STATISTICS 0;
ALTER TABLE agent_adoptions ALTER COLUMN fingerprint SET STATISTICS 0;
ALTER TABLE dataset_groups ALTER COLUMN name SET STATISTICS 0, ALTER COLUMN name_key SET STATISTICS 0;
ALTER TABLE glossary_terms ALTER COLUMN name SET STATISTICS 0, ALTER COLUMN name_key SET STATISTICS 0;
ALTER TABLE vocabulary_changes ALTER COLUMN name SET STATISTICS 0, ALTER COLUMN changed_by SET STATISTICS 0;
ALTER TABLE conventions ALTER COLUMN directory SET STATISTICS 0, ALTER COLUMN language SET STATISTICS 0,
    ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN created_by SET STATISTICS 0;
ALTER TABLE convention_versions ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN replaced_by SET STATISTICS 0;

-- A statistics target of 0 stops ANALYZE from sampling a column but leaves the rows it wrote
-- before in pg_statistic, and only a superuser may delete those. Run by one (the embedded
-- server's migrations are), this clears them; run by the database owner, it says what is left
-- to do: `registry harden` (docs/dba.md) clears them too.
DO $$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        DELETE FROM pg_statistic s
         USING pg_attribute a, pg_class c, pg_namespace n
         WHERE s.starelid = a.attrelid AND s.staattnum = a.attnum
           AND a.attrelid = c.oid AND c.relnamespace = n.oid
           AND n.nspname = current_schema() AND c.relrowsecurity AND a.attstattarget = 0;
    ELSIF EXISTS (SELECT 1 FROM pg_stat_user_tables t JOIN pg_class c ON c.oid = t.relid
                   WHERE t.schemaname = current_schema() AND c.relrowsecurity
                     AND coalesce(t.last_analyze, t.last_autoanalyze) IS NOT NULL) THEN
        RAISE WARNING 'statistics gathered before revision 0010 may remain on customer text columns; a superuser should run `registry harden` (docs/dba.md)';
    END IF;
END
$$;
