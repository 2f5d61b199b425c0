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
-- key test and no lookup; in a scope that lists no names at all, neither does any other agent;
-- otherwise the scope's names are read once a query (by the tables' primary key), an agent whose
-- names are all among them as written is one containment test, and only the others look each
-- name up after case folding and NFC — never one query per agent. The
-- OFFSET 0 keeps the lookups from running twice (once for available, once for missing).

CREATE OR REPLACE FUNCTION agent_missing(p_tenant_id bigint, p_project_id bigint, p_requires jsonb)
RETURNS TABLE (available boolean, missing jsonb)
LANGUAGE sql STABLE
AS $$
SELECT m.missing = '{"groups": [], "terms": []}'::jsonb, m.missing
  FROM (SELECT CASE
                 WHEN p_requires IS NULL OR NOT p_requires ?| ARRAY['grupos', 'groups', 'termos', 'terms']
                 THEN '{"groups": [], "terms": []}'::jsonb
                 -- A scope that lists no group and no term lacks every name required: no lookup
                 -- per name. The two tests depend on the scope only, so they run once a query.
                 WHEN NOT EXISTS (SELECT 1 FROM public.dataset_groups g
                                   WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id))
                  AND NOT EXISTS (SELECT 1 FROM public.glossary_terms g
                                   WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id))
                 THEN jsonb_build_object(
                     'groups', COALESCE(p_requires -> 'grupos', '[]') || COALESCE(p_requires -> 'groups', '[]'),
                     'terms', COALESCE(p_requires -> 'termos', '[]') || COALESCE(p_requires -> 'terms', '[]'))
                 -- Every name required is, as written, one of the scope's keys: available, with
                 -- no per-name work (jsonb containment). The scope's keys are read once a query:
                 -- these subqueries depend on the scope only.
                 WHEN COALESCE(p_requires -> 'grupos', '[]') || COALESCE(p_requires -> 'groups', '[]')
                        <@ COALESCE((SELECT jsonb_agg(g.name_key) FROM public.dataset_groups g
                                      WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id)), '[]')
                  AND COALESCE(p_requires -> 'termos', '[]') || COALESCE(p_requires -> 'terms', '[]')
                        <@ COALESCE((SELECT jsonb_agg(g.name_key) FROM public.glossary_terms g
                                      WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id)), '[]')
                 THEN '{"groups": [], "terms": []}'::jsonb
                 -- Otherwise each required name, case-folded and NFC-normalised, is looked up in
                 -- the scope's keys (read once a query, as above).
                 ELSE (SELECT jsonb_build_object(
                                  'groups', COALESCE(jsonb_agg(r.name ORDER BY r.n)
                                                     FILTER (WHERE r.kind = 'groups' AND NOT r.found), '[]'),
                                  'terms', COALESCE(jsonb_agg(r.name ORDER BY r.n)
                                                    FILTER (WHERE r.kind = 'terms' AND NOT r.found), '[]'))
                         FROM (SELECT e.kind, e.name, e.n,
                                      COALESCE(CASE e.kind WHEN 'groups' THEN h.groups ELSE h.terms END
                                                 ? normalize(lower(e.name), NFC), false) AS found
                                 FROM (SELECT 'groups' AS kind, x.name, x.n
                                         FROM jsonb_array_elements_text(COALESCE(p_requires -> 'grupos', '[]')
                                                                        || COALESCE(p_requires -> 'groups', '[]'))
                                              WITH ORDINALITY AS x (name, n)
                                       UNION ALL
                                       SELECT 'terms', x.name, x.n
                                         FROM jsonb_array_elements_text(COALESCE(p_requires -> 'termos', '[]')
                                                                        || COALESCE(p_requires -> 'terms', '[]'))
                                              WITH ORDINALITY AS x (name, n)) e
                                CROSS JOIN (SELECT (SELECT jsonb_agg(g.name_key) FROM public.dataset_groups g
                                                     WHERE g.tenant_id = p_tenant_id
                                                       AND g.scope_project_id IN (0, p_project_id)) AS groups,
                                                   (SELECT jsonb_agg(g.name_key) FROM public.glossary_terms g
                                                     WHERE g.tenant_id = p_tenant_id
                                                       AND g.scope_project_id IN (0, p_project_id)) AS terms) h) r)
               END AS missing
        OFFSET 0) m
$$;

COMMENT ON FUNCTION agent_missing(bigint, bigint, jsonb) IS 'Whether a scope has every dataset group and glossary term a requires object names, and which it lacks: {"groups": [...], "terms": [...]}.';
