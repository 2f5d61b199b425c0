-- Tenants and projects: found by id or slug, created, and the project's stored instruction file.

-- name: tenant_by_id
-- A tenant by id.
SELECT id, slug, name FROM public.tenants WHERE id = %s;

-- name: tenant_by_slug
-- A tenant by slug.
SELECT id, slug, name FROM public.tenants WHERE slug = %s;

-- name: project_by_id
-- A project of a tenant, by id.
SELECT id, tenant_id, slug, name FROM public.projects WHERE tenant_id = %s AND id = %s;

-- name: project_by_slug
-- A project of a tenant, by slug.
SELECT id, tenant_id, slug, name FROM public.projects WHERE tenant_id = %s AND slug = %s;

-- name: insert_tenant
-- A new tenant.
INSERT INTO public.tenants (slug, name) VALUES (%s, %s) RETURNING id, slug, name;

-- name: insert_project
-- A new project of a tenant.
INSERT INTO public.projects (tenant_id, slug, name) VALUES (%s, %s, %s) RETURNING id, tenant_id, slug, name;

-- name: project_instructions
-- A project's stored instruction file ('' = none); it outranks every AGENTS.md.
SELECT instruction_file FROM public.projects WHERE id = %s;

-- name: set_project_instructions
-- Store a project's instruction file (the gate has passed it; '' removes it).
UPDATE public.projects SET instruction_file = %s WHERE id = %s;
