-- What a scope has: dataset_groups and glossary_terms (docs/design.md, "Resolution rules", rule 7),
-- their history, their policies and their grants, in one place because they arrived together.
-- since revision 0008

-- History: every name added or removed, whoever writes it (the Python layer, a console user).
-- SECURITY DEFINER so tenants need no INSERT on vocabulary_changes and cannot forge an entry; the
-- trigger only fires for rows the writer may change (row-level security, or the delete functions
-- that stand in for DELETE, have decided). A row
-- removed because its tenant or project is being deleted leaves no entry: there is nothing left
-- to explain, and an entry would name a tenant that no longer exists.
CREATE OR REPLACE FUNCTION vocabulary_keep_history() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_row record;
BEGIN
    IF TG_OP = 'INSERT' THEN
        v_row := NEW;
    ELSE
        v_row := OLD;
        IF NOT EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = OLD.tenant_id)
           OR (OLD.project_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM public.projects p WHERE p.id = OLD.project_id)) THEN
            RETURN NULL;
        END IF;
    END IF;
    INSERT INTO public.vocabulary_changes (tenant_id, project_id, kind, name, change, changed_by)
    VALUES (v_row.tenant_id, v_row.project_id, TG_ARGV[0], v_row.name,
            CASE TG_OP WHEN 'INSERT' THEN 'added' ELSE 'removed' END,
            left(COALESCE(NULLIF(current_setting('registry.actor', true), ''), session_user), 120));
    RETURN NULL;
END
$$;

COMMENT ON FUNCTION vocabulary_keep_history() IS 'Trigger: records each dataset group or glossary term added or removed in vocabulary_changes.';

CREATE OR REPLACE TRIGGER dataset_groups_keep_history AFTER INSERT OR DELETE ON public.dataset_groups
    FOR EACH ROW EXECUTE FUNCTION public.vocabulary_keep_history('group');
CREATE OR REPLACE TRIGGER glossary_terms_keep_history AFTER INSERT OR DELETE ON public.glossary_terms
    FOR EACH ROW EXECUTE FUNCTION public.vocabulary_keep_history('term');

-- registry_app: its own tenant's rows, read and written; the history read only.
CREATE POLICY dataset_groups_app_own ON public.dataset_groups FOR ALL TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY glossary_terms_app_own ON public.glossary_terms FOR ALL TO registry_app
    USING (tenant_id = public.registry_current_tenant()) WITH CHECK (tenant_id = public.registry_current_tenant());
CREATE POLICY vocabulary_changes_app_read ON public.vocabulary_changes FOR SELECT TO registry_app
    USING (tenant_id = public.registry_current_tenant());
CREATE POLICY dataset_groups_staff_all ON public.dataset_groups FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);
CREATE POLICY glossary_terms_staff_all ON public.glossary_terms FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);
CREATE POLICY vocabulary_changes_staff_all ON public.vocabulary_changes FOR ALL TO registry_admin, registry_owner
    USING (true) WITH CHECK (true);

-- Removing a name: registry_app has no DELETE (it would let a login lock the table against every
-- tenant, deletes.sql), so it removes names through these, which reach the rows its own DELETE
-- would have. Matched after case folding and NFC; returns the names removed.
CREATE OR REPLACE FUNCTION delete_dataset_group(p_tenant_id bigint, p_project_id bigint, p_name text)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Decided from the caller before any row is read: as the owner, a read of another tenant's
-- name would show in the caller's pg_stat_xact_user_tables (hostile round 9, R21).
BEGIN
    IF NOT public.registry_may_delete(p_tenant_id) THEN
        RETURN;
    END IF;
    RETURN QUERY
    DELETE FROM public.dataset_groups g
     WHERE g.tenant_id = p_tenant_id AND g.scope_project_id = COALESCE(p_project_id, 0)
       AND g.name_key = normalize(lower(p_name), NFC) AND public.registry_may_delete(g.tenant_id)
    RETURNING g.name;
END
$$;

COMMENT ON FUNCTION delete_dataset_group(bigint, bigint, text) IS 'Takes a dataset group from one layer (tenant, or tenant and project) the caller may change, matched after case folding and NFC; returns the names removed.';

CREATE OR REPLACE FUNCTION delete_glossary_term(p_tenant_id bigint, p_project_id bigint, p_name text)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Decided from the caller before any row is read: as the owner, a read of another tenant's
-- name would show in the caller's pg_stat_xact_user_tables (hostile round 9, R21).
BEGIN
    IF NOT public.registry_may_delete(p_tenant_id) THEN
        RETURN;
    END IF;
    RETURN QUERY
    DELETE FROM public.glossary_terms g
     WHERE g.tenant_id = p_tenant_id AND g.scope_project_id = COALESCE(p_project_id, 0)
       AND g.name_key = normalize(lower(p_name), NFC) AND public.registry_may_delete(g.tenant_id)
    RETURNING g.name;
END
$$;

COMMENT ON FUNCTION delete_glossary_term(bigint, bigint, text) IS 'Takes a glossary term from one layer (tenant, or tenant and project) the caller may change, matched after case folding and NFC; returns the names removed.';

-- Grants, from nothing (as privileges.sql does): names are added and removed, never edited (an
-- edit is a removal and an addition, both in the history); keys and generated columns are the
-- database's. No DELETE for registry_app: the functions above.
REVOKE ALL ON public.dataset_groups, public.glossary_terms, public.vocabulary_changes FROM registry_app;
GRANT SELECT ON public.dataset_groups, public.glossary_terms TO registry_app;
GRANT INSERT (tenant_id, project_id, name) ON public.dataset_groups, public.glossary_terms TO registry_app;
GRANT SELECT ON public.vocabulary_changes TO registry_app;
GRANT SELECT, INSERT, DELETE ON public.dataset_groups, public.glossary_terms TO registry_admin;
GRANT SELECT ON public.vocabulary_changes TO registry_admin;

-- Announced like agents (sql/replaceable/notify_changes.sql): a cache of the tenant's catalogs
-- must learn that availability may have changed.
CREATE OR REPLACE TRIGGER dataset_groups_notify AFTER INSERT OR UPDATE OR DELETE ON public.dataset_groups
    FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
CREATE OR REPLACE TRIGGER glossary_terms_notify AFTER INSERT OR UPDATE OR DELETE ON public.glossary_terms
    FOR EACH ROW EXECUTE FUNCTION public.notify_registry_change();
