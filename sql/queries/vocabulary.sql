-- What a scope has: the dataset groups and glossary terms of a tenant and of its projects
-- (revision 0008). {table} is dataset_groups or glossary_terms, composed with psycopg.sql by
-- registry.vocabulary from a fixed list.

-- name: insert_scope_name
-- Give a layer (a tenant, or one of its projects) a name; nothing when that layer already has it
-- (after case folding and NFC). Returns the row written.
INSERT INTO public.{table} (tenant_id, project_id, name) VALUES (%s, %s, %s)
ON CONFLICT DO NOTHING RETURNING name;

-- name: delete_scope_name
-- Take a name from one layer, matched after case folding and NFC. Returns the rows removed.
DELETE FROM public.{table}
 WHERE tenant_id = %s AND scope_project_id = COALESCE(%s, 0) AND name_key = normalize(lower(%s), NFC)
RETURNING name;

-- name: scope_names
-- The names a scope has: its tenant's, and with a project its additions, the tenant's first.
SELECT name, layer, tenant_id, project_id FROM public.{table}
 WHERE tenant_id = %s AND scope_project_id IN (0, %s)
 ORDER BY scope_project_id, name_key;

-- name: tenant_name_has
-- Whether the tenant layer has a name (to say so when a project tries to remove it).
SELECT name FROM public.{table}
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
