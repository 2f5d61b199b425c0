-- What an agent's `requires` names that a scope lacks (docs/design.md, "Resolution rules", rule 7).
-- since revision 0008
--
-- `requires` is {"grupos": [...], "termos": [...]} (the seed's keys; "groups" and "terms" are
-- read too, other keys are not requirements this registry knows). A scope has its tenant's
-- dataset groups and glossary terms and its project's; names match after case folding and NFC
-- (the tables' generated name_key), nothing else. The answer is {"groups": [...], "terms":
-- [...]}, each in the order requires lists them, both empty when the agent is available.
--
-- A table function of one SELECT, so it is inlined where it is called (resolve_agents,
-- conversation_agents, explain_agent): an agent that requires nothing — most of them — costs a
-- key test and no lookup; each required name costs one probe of the tables' primary key. The
-- OFFSET 0 keeps the lookups from running twice (once for available, once for missing).

CREATE OR REPLACE FUNCTION agent_missing(p_tenant_id bigint, p_project_id bigint, p_requires jsonb)
RETURNS TABLE (available boolean, missing jsonb)
LANGUAGE sql STABLE
AS $$
SELECT m.missing = '{"groups": [], "terms": []}'::jsonb, m.missing
  FROM (SELECT CASE
                 WHEN p_requires IS NULL OR NOT p_requires ?| ARRAY['grupos', 'groups', 'termos', 'terms']
                 THEN '{"groups": [], "terms": []}'::jsonb
                 ELSE jsonb_build_object(
                     'groups', COALESCE(
                         (SELECT jsonb_agg(r.name ORDER BY r.n)
                            FROM jsonb_array_elements_text(COALESCE(p_requires -> 'grupos', '[]')
                                                           || COALESCE(p_requires -> 'groups', '[]'))
                                 WITH ORDINALITY AS r (name, n)
                           WHERE NOT EXISTS (SELECT 1 FROM public.dataset_groups g
                                              WHERE g.tenant_id = p_tenant_id
                                                AND g.scope_project_id IN (0, p_project_id)
                                                AND g.name_key = normalize(lower(r.name), NFC))),
                         '[]'),
                     'terms', COALESCE(
                         (SELECT jsonb_agg(r.name ORDER BY r.n)
                            FROM jsonb_array_elements_text(COALESCE(p_requires -> 'termos', '[]')
                                                           || COALESCE(p_requires -> 'terms', '[]'))
                                 WITH ORDINALITY AS r (name, n)
                           WHERE NOT EXISTS (SELECT 1 FROM public.glossary_terms g
                                              WHERE g.tenant_id = p_tenant_id
                                                AND g.scope_project_id IN (0, p_project_id)
                                                AND g.name_key = normalize(lower(r.name), NFC))),
                         '[]'))
               END AS missing
        OFFSET 0) m
$$;

COMMENT ON FUNCTION agent_missing(bigint, bigint, jsonb) IS 'Whether a scope has every dataset group and glossary term a requires object names, and which it lacks: {"groups": [...], "terms": [...]}.';
