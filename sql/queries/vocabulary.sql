-- What a scope has: the dataset groups and glossary terms of a tenant and of its projects
-- (revision 0008). The same four statements for each table (registry.vocabulary picks by kind).

-- name: insert_dataset_group
-- Give a layer (a tenant, or one of its projects) a dataset group; nothing when that layer already
-- has it (after case folding and NFC). Returns the row written.
INSERT INTO public.dataset_groups (tenant_id, project_id, name) VALUES (%s, %s, %s)
ON CONFLICT DO NOTHING RETURNING name;

-- name: delete_dataset_group
-- Take a dataset group from one layer, matched after case folding and NFC. Returns the rows removed.
SELECT name FROM public.delete_dataset_group(%s, %s, %s) AS name;

-- name: dataset_groups_of_scope
-- The dataset groups a scope has: its tenant's, and with a project its additions, the tenant's first.
SELECT name, layer, tenant_id, project_id FROM public.dataset_groups
 WHERE tenant_id = %s AND scope_project_id IN (0, %s)
 ORDER BY scope_project_id, name_key;

-- name: tenant_has_dataset_group
-- Whether the tenant layer has a dataset group (said when a project tries to remove it).
SELECT name FROM public.dataset_groups
 WHERE tenant_id = %s AND scope_project_id = 0 AND name_key = normalize(lower(%s), NFC);

-- name: insert_glossary_term
-- Give a layer (a tenant, or one of its projects) a glossary term; nothing when that layer already
-- has it (after case folding and NFC). Returns the row written.
INSERT INTO public.glossary_terms (tenant_id, project_id, name) VALUES (%s, %s, %s)
ON CONFLICT DO NOTHING RETURNING name;

-- name: delete_glossary_term
-- Take a glossary term from one layer, matched after case folding and NFC. Returns the rows removed.
SELECT name FROM public.delete_glossary_term(%s, %s, %s) AS name;

-- name: glossary_terms_of_scope
-- The glossary terms a scope has: its tenant's, and with a project its additions, the tenant's first.
SELECT name, layer, tenant_id, project_id FROM public.glossary_terms
 WHERE tenant_id = %s AND scope_project_id IN (0, %s)
 ORDER BY scope_project_id, name_key;

-- name: tenant_has_glossary_term
-- Whether the tenant layer has a glossary term (said when a project tries to remove it).
SELECT name FROM public.glossary_terms
 WHERE tenant_id = %s AND scope_project_id = 0 AND name_key = normalize(lower(%s), NFC);

-- name: scope_names_to_export
-- Every layer's names, for registry export: kind, the tenant's and project's slugs, the name;
-- all tenants, or one (%(tenant)s NULL: all).
SELECT v.kind, t.slug AS tenant_slug, p.slug AS project_slug, v.name
  FROM (SELECT 'group' AS kind, tenant_id, project_id, scope_project_id, name, name_key FROM public.dataset_groups
        UNION ALL
        SELECT 'term', tenant_id, project_id, scope_project_id, name, name_key FROM public.glossary_terms) v
  JOIN public.tenants t ON t.id = v.tenant_id
  LEFT JOIN public.projects p ON p.id = v.project_id
 WHERE %(tenant)s::bigint IS NULL OR v.tenant_id = %(tenant)s
 ORDER BY t.slug, v.scope_project_id <> 0, p.slug, v.kind, v.name_key;
