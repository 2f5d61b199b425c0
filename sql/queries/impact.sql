-- What a change would do, without making it (sql/replaceable/impact.sql); each runs in a
-- read-only snapshot transaction.

-- name: preview_removal
-- What deleting, disabling or unpublishing an agent would change.
SELECT * FROM preview_agent_removal(%s);

-- name: preview_optout
-- What hiding an inherited agent in a project would change.
SELECT * FROM preview_optout(%s, %s);

-- name: preview_default
-- What setting a layer's default agent would change.
SELECT * FROM preview_default_change(%s, %s, %s);

-- name: inherited_effective
-- The agent of a slug a layer inherits and shows now: the scope's effective agent, when it comes
-- from a less specific layer than the one being written (tenant: the official one; project: the
-- tenant's or the official one). A published agent written there would hide it.
SELECT r.agent_id, r.layer FROM resolve_agent(%(tenant_id)s, %(project_id)s, %(slug)s) r
 WHERE (%(project_id)s::bigint IS NOT NULL AND r.layer IN ('tenant', 'official'))
    OR (%(project_id)s::bigint IS NULL AND %(tenant_id)s::bigint IS NOT NULL AND r.layer = 'official');

-- name: placeholder_agent
-- A published stand-in of a slug in a layer, inserted only inside a savepoint that is rolled back:
-- what impact_of_showing previews against. Returns its id.
INSERT INTO public.agents (tenant_id, project_id, slug, status)
VALUES (%(tenant_id)s, %(project_id)s, %(slug)s, 'published') RETURNING id;

-- name: show_agent_for_preview
-- Publish and enable an agent, inside a savepoint that is rolled back (impact_of_showing).
UPDATE public.agents SET status = 'published', enabled = true WHERE id = %s;
