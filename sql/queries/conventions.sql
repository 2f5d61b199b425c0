-- Directory-scoped conventions (revision 0009): written through registry.conventions, read by
-- the prompt path for one scope.

-- name: insert_convention
-- A new convention in a layer (tenant and project ids NULL for the layers above).
INSERT INTO public.conventions (tenant_id, project_id, directory, language, body, created_by)
VALUES (%(tenant_id)s, %(project_id)s, %(directory)s, %(language)s, %(body)s, %(created_by)s)
RETURNING id, layer, directory, language, body, version;

-- name: conventions_of_scope
-- The conventions a scope sees (official, its tenant's, its project's); with `levels`, only the
-- language-level ones and those of these directories (the asked one and its parents).
SELECT id, layer, directory, language, body, version FROM public.conventions
 WHERE ((scope_tenant_id = 0 AND scope_project_id = 0)
        OR (scope_tenant_id = %(tenant_id)s AND scope_project_id IN (0, COALESCE(%(project_id)s::bigint, 0))))
   AND (%(levels)s::text[] IS NULL OR directory IS NULL OR directory = ANY(%(levels)s::text[]))
 ORDER BY id;

-- name: convention_by_id
-- One convention with its layer's tenant and project slugs.
SELECT c.id, c.layer, c.directory, c.language, c.body, c.version, t.slug AS tenant, p.slug AS project
  FROM public.conventions c
  LEFT JOIN public.tenants t ON t.id = c.tenant_id
  LEFT JOIN public.projects p ON p.id = c.project_id
 WHERE c.id = %s;

-- name: update_convention
-- A convention's new text, if it is still at the version the caller read (NULL: any); the
-- trigger keeps the old text and bumps the version.
UPDATE public.conventions SET body = %(body)s
 WHERE id = %(id)s AND (%(version)s::integer IS NULL OR version = %(version)s)
RETURNING id, layer, directory, language, body, version;

-- name: delete_convention
-- Remove a convention (its history goes with it).
SELECT id FROM public.delete_convention(%s) AS id WHERE id IS NOT NULL;

-- name: convention_history
-- The texts a convention had before its current one, oldest first; read by the convention's
-- scope_tenant_id and id, convention_versions_pkey's first columns (revision 0012).
SELECT v.version, v.body, v.replaced_by, v.replaced_at
  FROM public.conventions c
  JOIN public.convention_versions v ON v.scope_tenant_id = c.scope_tenant_id AND v.convention_id = c.id
 WHERE c.id = %s ORDER BY v.version;

-- name: seed_convention
-- A demo convention, unless its layer already has one with the same directory, language and
-- text: loading the seeds twice changes nothing.
INSERT INTO public.conventions (tenant_id, project_id, directory, language, body, created_by)
SELECT %(tenant_id)s, %(project_id)s, %(directory)s, %(language)s, %(body)s, 'seeds'
 WHERE NOT EXISTS (
       SELECT 1 FROM public.conventions
        WHERE scope_tenant_id = COALESCE(%(tenant_id)s::bigint, 0) AND scope_project_id = COALESCE(%(project_id)s::bigint, 0)
          AND directory IS NOT DISTINCT FROM %(directory)s::text AND language IS NOT DISTINCT FROM %(language)s::text
          AND body = %(body)s::text);
