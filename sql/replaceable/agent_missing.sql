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
-- key test and no lookup. For the others, the scope's names are read once a query (one
-- aggregate per table, by its primary key: `k`, whose two subqueries depend on the scope only)
-- and the required names once per agent (`r`); a scope that lists no names at all lacks all of
-- them, an agent whose names are all among the scope's as written is one containment test, and
-- only the others look each name up after case folding and NFC — never one query per agent.
-- `k` is read by every branch through its columns, not by repeating its subqueries: each copy
-- would be one more plan node to start for every conversation resolved. The OFFSET 0s keep
-- the subqueries from being pulled up and copied into each place that reads them.

CREATE OR REPLACE FUNCTION agent_missing(p_tenant_id bigint, p_project_id bigint, p_requires jsonb)
RETURNS TABLE (available boolean, missing jsonb)
LANGUAGE sql STABLE
AS $$
SELECT m.missing = '{"groups": [], "terms": []}'::jsonb, m.missing
  FROM (SELECT CASE
                 WHEN public.requires_nothing(p_requires)
                 THEN '{"groups": [], "terms": []}'::jsonb
                 ELSE (SELECT CASE
                                WHEN k.groups IS NULL AND k.terms IS NULL
                                THEN jsonb_build_object('groups', r.groups, 'terms', r.terms)
                                WHEN r.groups <@ COALESCE(k.groups, '[]') AND r.terms <@ COALESCE(k.terms, '[]')
                                THEN '{"groups": [], "terms": []}'::jsonb
                                ELSE jsonb_build_object(
                                       'groups', (SELECT COALESCE(jsonb_agg(x.name ORDER BY x.n), '[]')
                                                    FROM jsonb_array_elements_text(r.groups) WITH ORDINALITY AS x (name, n)
                                                   WHERE NOT COALESCE(k.groups ? normalize(lower(x.name), NFC), false)),
                                       'terms', (SELECT COALESCE(jsonb_agg(x.name ORDER BY x.n), '[]')
                                                   FROM jsonb_array_elements_text(r.terms) WITH ORDINALITY AS x (name, n)
                                                  WHERE NOT COALESCE(k.terms ? normalize(lower(x.name), NFC), false)))
                              END
                         FROM (SELECT COALESCE(p_requires -> 'grupos', '[]') || COALESCE(p_requires -> 'groups', '[]') AS groups,
                                      COALESCE(p_requires -> 'termos', '[]') || COALESCE(p_requires -> 'terms', '[]') AS terms
                               OFFSET 0) r,
                              (SELECT (SELECT jsonb_agg(g.name_key) FROM public.dataset_groups g
                                        WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id)) AS groups,
                                      (SELECT jsonb_agg(g.name_key) FROM public.glossary_terms g
                                        WHERE g.tenant_id = p_tenant_id AND g.scope_project_id IN (0, p_project_id)) AS terms
                               OFFSET 0) k)
               END AS missing
        OFFSET 0) m
$$;

COMMENT ON FUNCTION agent_missing(bigint, bigint, jsonb) IS 'Whether a scope has every dataset group and glossary term a requires object names, and which it lacks: {"groups": [...], "terms": [...]}.';
