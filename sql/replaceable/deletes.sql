-- Deleting rows without a DELETE grant (docs/security.md, "Table locks"; hostile-tenant rounds
-- 2–4: A25, #33, #53).
--
-- PostgreSQL lets any role with table-level DELETE (or UPDATE, or TRUNCATE) run
-- `LOCK TABLE … IN ACCESS EXCLUSIVE MODE`; a tenant's console login that held DELETE on
-- `agents` could stall every tenant until its transaction ended. registry_app keeps SELECT,
-- column-level INSERT and UPDATE (which allow no stronger lock than ROW EXCLUSIVE), and loses
-- DELETE: it deletes through these functions, which run as their owner and remove only the rows
-- the caller's own DELETE would have reached under row-level security:
--
-- * acting for a tenant (registry_current_tenant(): the setting, from a login allowed to name
--   that tenant), that tenant's rows and never the official layer;
-- * unscoped, every row for staff (registry_admin, registry_owner, superusers) and none for
--   anyone else — as the policies do.
--
-- The history and notify triggers still see the caller's login (session_user), so a deletion
-- is recorded as the caller's. Each function returns what it removed, so "not found" and "not
-- yours" look the same, as they do under row-level security.
--
-- Planner settings, pinned on every SECURITY DEFINER function of sql/replaceable/ (hostile round
-- 10, R02-R04): a definer reads as its owner but in the caller's session, so what it fetches
-- shows in the caller's own pg_stat_xact_user_tables, and it was planned with the caller's
-- settings. `enable_indexscan = off` made a tenant's read by id a bitmap scan of the key by id
-- with the tenant a filter (another tenant's row fetched, then refused: 1 against 0 for a missing
-- id), and `plan_cache_mode = force_generic_plan` did the same to a condition with an OR. Pinned:
-- every scan kind on, and generic plans, made without the values named, so a plan cannot differ
-- between a value another tenant has and a missing one. The cost settings (random_page_cost,
-- cpu_*_cost, effective_cache_size) are the DBA's tuning and are not pinned: over a grid of 1,080
-- of them no read here left its key by the tenant (docs/security.md, "Hostile round 10").
--
-- Reads by id (hostile round 10): acting for a tenant, a row named by its id is looked up first
-- by the tenant and the id as one row comparison, `(tenant_id, id) >= (t, x) AND (tenant_id, id)
-- <= (t, x)`, ordered by the key led by the tenant. Only an index led by the tenant can take a
-- row comparison that starts with it, so a key by id alone is never a candidate, and a missing
-- row reads nothing but the caller's own index entries after the id. Written as `tenant_id = t
-- AND id = x`, both keys match fully and cost the same but for their depth, which decides: with
-- 100,002 conversations (conversations_pkey two levels deep, conversations_tenant_id_key three)
-- the planner read another tenant's conversation by conversations_pkey and left the tenant a
-- filter, whatever the settings (conversations_pkey was (id) alone until revision 0015; the other
-- tables' keys by id still are). Once the row is known to be the caller's, it is deleted.
-- since revision 0007

CREATE OR REPLACE FUNCTION registry_may_delete(p_tenant_id bigint) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT COALESCE(CASE WHEN public.registry_current_tenant() IS NOT NULL
                     THEN p_tenant_id = public.registry_current_tenant()
                     ELSE pg_has_role(session_user, 'registry_admin', 'MEMBER')
                          OR pg_has_role(session_user, 'registry_owner', 'MEMBER') END,
                false)
$$;

COMMENT ON FUNCTION registry_may_delete(bigint) IS 'Whether the caller may delete a row of this tenant (NULL: the official layer): its own tenant when acting for one; anything for unscoped staff.';

-- delete_agent: delete_agent.sql since revision 0014 (it names key_tenant_id), and its stand-in
-- below, delete_agent_before_0014.sql.

CREATE OR REPLACE FUNCTION delete_optouts(p_project_id bigint, p_slug text, p_layer text DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Shows a slug in a project again: its opt-outs of that slug (of one layer's agent, or any).
-- Acting for a tenant, the tenant is in every condition, on columns each index a plan could use
-- holds as an index condition: another tenant's opt-outs and agents are never fetched, so the
-- caller's own pg_stat_xact_user_tables cannot count them (hostile round 9, R23). An opted-out
-- agent is official or of the project's own tenant's layer (agent_optouts_inherited_only).
DECLARE
    v_tenant bigint := public.registry_current_tenant();
    v_removed integer;
BEGIN
    IF v_tenant IS NOT NULL THEN
        DELETE FROM public.agent_optouts o USING public.agents a
         WHERE o.project_id = p_project_id AND o.tenant_id = v_tenant
           AND a.scope_tenant_id IN (0, v_tenant) AND a.scope_project_id = 0
           AND a.id = o.agent_id AND a.slug = p_slug
           AND (p_layer IS NULL OR a.layer = p_layer)
           AND public.registry_may_delete(o.tenant_id);
    ELSIF public.registry_may_delete(NULL) THEN  -- unscoped staff: any project
        DELETE FROM public.agent_optouts o USING public.agents a
         WHERE o.project_id = p_project_id AND a.id = o.agent_id AND a.slug = p_slug
           AND (p_layer IS NULL OR a.layer = p_layer);
    ELSE
        RETURN 0;  -- unscoped and not staff: nothing, and nothing read
    END IF;
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    RETURN v_removed;
END
$$;

COMMENT ON FUNCTION delete_optouts(bigint, text, text) IS 'Removes a project''s opt-outs of a slug (of one layer, or any) the caller may delete; returns how many.';

CREATE OR REPLACE FUNCTION delete_project(p_project_id bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Its agents, opt-outs, defaults and conversations go with it (the foreign keys' ON DELETE).
-- Acting for a tenant, by projects_tenant_id_key: another tenant's project is never fetched.
DECLARE
    v_tenant bigint := public.registry_current_tenant();
    v_own bigint;
BEGIN
    IF v_tenant IS NOT NULL THEN
        -- Whether it is the caller's, first, by the row comparison ("Reads by id", deletes.sql).
        SELECT p.id INTO v_own FROM public.projects p
         WHERE (p.tenant_id, p.id) >= (v_tenant, p_project_id) AND (p.tenant_id, p.id) <= (v_tenant, p_project_id)
         ORDER BY p.tenant_id, p.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN false;
        END IF;
        DELETE FROM public.projects p WHERE p.tenant_id = v_tenant AND p.id = p_project_id;
    ELSIF public.registry_may_delete(NULL) THEN
        DELETE FROM public.projects p WHERE p.id = p_project_id;
    ELSE
        RETURN false;
    END IF;
    RETURN FOUND;
END
$$;

COMMENT ON FUNCTION delete_project(bigint) IS 'Deletes a project the caller may delete, with what its foreign keys cascade to; true when a row was deleted.';

CREATE OR REPLACE FUNCTION delete_conversation(p_conversation_id bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- Acting for a tenant, by conversations_tenant_id_key: another tenant's is never fetched.
DECLARE
    v_tenant bigint := public.registry_current_tenant();
    v_own bigint;
BEGIN
    IF v_tenant IS NOT NULL THEN
        -- Whether it is the caller's, first, by the row comparison ("Reads by id", deletes.sql).
        SELECT c.id INTO v_own FROM public.conversations c
         WHERE (c.tenant_id, c.id) >= (v_tenant, p_conversation_id) AND (c.tenant_id, c.id) <= (v_tenant, p_conversation_id)
         ORDER BY c.tenant_id, c.id LIMIT 1;
        IF v_own IS NULL THEN
            RETURN false;
        END IF;
        DELETE FROM public.conversations c WHERE c.tenant_id = v_tenant AND c.id = p_conversation_id;
    ELSIF public.registry_may_delete(NULL) THEN
        DELETE FROM public.conversations c WHERE c.id = p_conversation_id;
    ELSE
        RETURN false;
    END IF;
    RETURN FOUND;
END
$$;

COMMENT ON FUNCTION delete_conversation(bigint) IS 'Deletes a conversation the caller may delete; true when a row was deleted.';

CREATE OR REPLACE FUNCTION delete_agent_default(p_tenant_id bigint, p_project_id bigint DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = on SET enable_indexscan = on SET enable_bitmapscan = on SET plan_cache_mode = force_generic_plan
AS $$
-- The layer then inherits its default again (the same as setting default_agent to NULL).
-- Decided from the caller before any row is read: another tenant's default is never fetched
-- (the owner's read would show in the caller's pg_stat_xact_user_tables, hostile round 9, R22).
BEGIN
    IF NOT public.registry_may_delete(p_tenant_id) THEN
        RETURN false;
    END IF;
    DELETE FROM public.agent_defaults d
     WHERE d.scope_tenant_id = COALESCE(p_tenant_id, 0) AND d.scope_project_id = COALESCE(p_project_id, 0)
       AND public.registry_may_delete(d.tenant_id);
    RETURN FOUND;
END
$$;

COMMENT ON FUNCTION delete_agent_default(bigint, bigint) IS 'Deletes a layer''s default row (tenant, or tenant and project) the caller may delete; true when a row was deleted.';
