-- What a layer says on top of its agents: its default agent, and a project's opt-outs.

-- name: set_default
-- A layer's default agent (a slug, '' for none, NULL to inherit), written only if it changes:
-- an unchanged value touches no row (no updated_at, no notification) and returns none. The API
-- and the seeds both use it.
INSERT INTO public.agent_defaults (tenant_id, project_id, default_agent)
VALUES (%(tenant_id)s, %(project_id)s, %(default_agent)s)
ON CONFLICT ON CONSTRAINT agent_defaults_pkey DO UPDATE SET default_agent = EXCLUDED.default_agent
 WHERE agent_defaults.default_agent IS DISTINCT FROM EXCLUDED.default_agent
RETURNING tenant_id, project_id, layer, default_agent;

-- name: inherited_agent
-- The agent of a slug a project inherits: the tenant's row, else the official one, or the row of
-- the layer asked for.
SELECT id, slug, layer FROM public.agents
 WHERE slug = %(slug)s AND scope_project_id = 0 AND scope_tenant_id IN (0, %(tenant_id)s)
   AND (%(layer)s::text IS NULL OR layer = %(layer)s)
 ORDER BY scope_tenant_id DESC LIMIT 1;

-- name: insert_optout
-- Hide an inherited agent in a project; twice is a no-op.
INSERT INTO public.agent_optouts (project_id, agent_id) VALUES (%s, %s)
ON CONFLICT ON CONSTRAINT agent_optouts_pkey DO NOTHING;

-- name: delete_optouts
-- Show a slug in a project again: its opt-outs (of one layer's agent, or any), removed.
SELECT public.delete_optouts(%(project_id)s, %(slug)s, %(layer)s::text) AS removed;
