-- The demo data (seeds/demo.yaml): upserts by natural key (slugs), and an upsert that would
-- change nothing touches no row, so a reload reports 0 changed. Agents go through the API's
-- write path (agents.sql) and defaults through layers.sql's set_default.

-- name: seed_tenant
-- A tenant by slug, its name updated if it changed.
INSERT INTO public.tenants (slug, name) VALUES (%(slug)s, %(name)s)
ON CONFLICT ON CONSTRAINT tenants_slug_key DO UPDATE SET name = EXCLUDED.name
 WHERE tenants.name IS DISTINCT FROM EXCLUDED.name;

-- name: seed_project
-- A project by its tenant's slug and its own, its name updated if it changed.
INSERT INTO public.projects (tenant_id, slug, name)
SELECT t.id, %(slug)s, %(name)s FROM public.tenants t WHERE t.slug = %(tenant)s
ON CONFLICT ON CONSTRAINT projects_tenant_slug_key DO UPDATE SET name = EXCLUDED.name
 WHERE projects.name IS DISTINCT FROM EXCLUDED.name;

-- name: seed_optout
-- A project's opt-out of the official or tenant agent of a slug; twice is a no-op.
INSERT INTO public.agent_optouts (project_id, agent_id)
SELECT %(project_id)s, a.id FROM public.agents a
 WHERE a.slug = %(agent)s AND a.layer = %(layer)s
   AND a.scope_tenant_id = CASE WHEN %(layer)s = 'official' THEN 0 ELSE %(tenant_id)s END
   AND a.scope_project_id = 0
ON CONFLICT ON CONSTRAINT agent_optouts_pkey DO NOTHING;

-- name: seed_conversation
-- A conversation by its tenant and slug, its project, title and pin updated if they changed.
INSERT INTO public.conversations (tenant_id, project_id, slug, title, agent_slug)
VALUES (%(tenant_id)s, %(project_id)s, %(slug)s, %(title)s, %(agent_slug)s)
ON CONFLICT ON CONSTRAINT conversations_tenant_slug_key DO UPDATE
   SET project_id = EXCLUDED.project_id, title = EXCLUDED.title, agent_slug = EXCLUDED.agent_slug
 WHERE (conversations.project_id, conversations.title, conversations.agent_slug)
       IS DISTINCT FROM (EXCLUDED.project_id, EXCLUDED.title, EXCLUDED.agent_slug);
