-- Impact preview (docs/operations.md): what a change would do, computed without making it.
-- Each preview resolves every affected scope twice — as things are, and as they would be — and
-- returns the differences. Read-only: run it in one REPEATABLE READ transaction for a
-- consistent snapshot (the Python API does).
--
-- Rows (kind):
--   agent    a scope whose effective agent for the slug changes: before/after agent and layer
--            (after NULL = the slug disappears there)
--   default  a scope whose effective default changes or becomes orphaned
--   pin      a scope whose conversations pinned to the slug would become orphaned
-- conversations = how many conversations of that scope follow that slug (pinned to it, or
-- following a default that names it).

-- configured_default_agent, as it would be with one layer's default_agent replaced.
CREATE OR REPLACE FUNCTION configured_default_agent_if(p_tenant_id bigint, p_project_id bigint,
                                                       p_layer_tenant bigint, p_layer_project bigint,
                                                       p_value text)
RETURNS TABLE (default_agent text, source_layer text)
LANGUAGE sql STABLE
AS $$
SELECT v.default_agent, v.layer
  FROM (SELECT ad.default_agent, ad.layer, ad.scope_tenant_id, ad.scope_project_id
          FROM public.agent_defaults ad
         WHERE ad.scope_tenant_id IN (0, p_tenant_id)
           AND ad.scope_project_id IN (0, p_project_id)
           AND NOT (ad.scope_tenant_id = COALESCE(p_layer_tenant, 0)
                    AND ad.scope_project_id = COALESCE(p_layer_project, 0))
        UNION ALL
        SELECT p_value,
               CASE WHEN p_layer_project IS NOT NULL THEN 'project'
                    WHEN p_layer_tenant IS NOT NULL THEN 'tenant' ELSE 'official' END,
               COALESCE(p_layer_tenant, 0), COALESCE(p_layer_project, 0)
         WHERE COALESCE(p_layer_tenant, 0) IN (0, p_tenant_id)
           AND COALESCE(p_layer_project, 0) IN (0, COALESCE(p_project_id, 0))) v
 WHERE v.default_agent IS NOT NULL
 ORDER BY v.scope_project_id DESC, v.scope_tenant_id DESC
 LIMIT 1
$$;

-- How many conversations of a scope run under a slug: pinned to it, or following a default
-- that names it.
CREATE OR REPLACE FUNCTION conversations_following(p_tenant_id bigint, p_project_id bigint, p_slug text,
                                                   p_pinned_only boolean)
RETURNS bigint
LANGUAGE sql STABLE
AS $$
SELECT count(*)
  FROM public.conversations c
  LEFT JOIN LATERAL public.configured_default_agent(c.tenant_id, c.project_id) d ON c.agent_slug IS NULL
 WHERE c.tenant_id = p_tenant_id
   AND c.project_id IS NOT DISTINCT FROM p_project_id
   AND (c.agent_slug = p_slug OR (NOT p_pinned_only AND c.agent_slug IS NULL AND d.default_agent = p_slug))
$$;

-- The core: for one slug, the scopes (of one tenant, or all) whose effective agent would change.
CREATE OR REPLACE FUNCTION preview_slug_impact(p_slug text, p_tenant_id bigint, p_project_id bigint,
                                               p_removed_agent bigint, p_optout_project bigint,
                                               p_optout_agent bigint)
RETURNS TABLE (kind text, tenant_id bigint, project_id bigint, before_slug text, after_slug text,
               before_agent_id bigint, before_layer text, after_agent_id bigint, after_layer text,
               orphaned boolean, conversations bigint)
LANGUAGE sql STABLE
AS $$
WITH changed AS (
    SELECT s.tenant_id, s.project_id, b.agent_id AS before_id, b.layer AS before_layer,
           a.id AS after_id, a.layer AS after_layer
      FROM public.scopes s
      LEFT JOIN LATERAL public.resolve_agent(s.tenant_id, s.project_id, p_slug) b ON true
      LEFT JOIN LATERAL public.winning_agent(s.tenant_id, s.project_id, p_slug, p_removed_agent,
                                      p_optout_project, p_optout_agent) a ON true
     WHERE (p_tenant_id IS NULL OR s.tenant_id = p_tenant_id)
       AND (p_project_id IS NULL OR s.project_id = p_project_id)
       AND b.agent_id IS DISTINCT FROM a.id
)
SELECT 'agent', c.tenant_id, c.project_id, p_slug, p_slug, c.before_id, c.before_layer, c.after_id,
       c.after_layer, c.after_id IS NULL, public.conversations_following(c.tenant_id, c.project_id, p_slug, false)
  FROM changed c
UNION ALL
SELECT 'default', c.tenant_id, c.project_id, p_slug, p_slug, c.before_id, c.before_layer, NULL, NULL, true,
       public.conversations_following(c.tenant_id, c.project_id, p_slug, false)
       - public.conversations_following(c.tenant_id, c.project_id, p_slug, true)
  FROM changed c
 CROSS JOIN LATERAL public.configured_default_agent(c.tenant_id, c.project_id) d
 WHERE c.after_id IS NULL AND d.default_agent = p_slug
UNION ALL
SELECT 'pin', c.tenant_id, c.project_id, p_slug, p_slug, c.before_id, c.before_layer, NULL, NULL, true, pinned.n
  FROM changed c
 CROSS JOIN LATERAL (SELECT public.conversations_following(c.tenant_id, c.project_id, p_slug, true) AS n) pinned
 WHERE c.after_id IS NULL AND pinned.n > 0
$$;

-- Deleting, disabling or unpublishing an agent: the layer beneath shows through, or the slug
-- disappears (orphaning defaults and pins).
CREATE OR REPLACE FUNCTION preview_agent_removal(p_agent_id bigint)
RETURNS TABLE (kind text, tenant_id bigint, project_id bigint, before_slug text, after_slug text,
               before_agent_id bigint, before_layer text, after_agent_id bigint, after_layer text,
               orphaned boolean, conversations bigint)
LANGUAGE sql STABLE
AS $$
SELECT i.*
  FROM public.agents a
 CROSS JOIN LATERAL public.preview_slug_impact(a.slug, a.tenant_id, a.project_id, a.id, NULL, NULL) i
 WHERE a.id = p_agent_id
$$;

-- A project opting out of an inherited agent: the slug disappears there if that agent wins.
CREATE OR REPLACE FUNCTION preview_optout(p_project_id bigint, p_agent_id bigint)
RETURNS TABLE (kind text, tenant_id bigint, project_id bigint, before_slug text, after_slug text,
               before_agent_id bigint, before_layer text, after_agent_id bigint, after_layer text,
               orphaned boolean, conversations bigint)
LANGUAGE sql STABLE
AS $$
SELECT i.*
  FROM public.agents a
  JOIN public.projects p ON p.id = p_project_id
 CROSS JOIN LATERAL public.preview_slug_impact(a.slug, p.tenant_id, p.id, NULL, p.id, a.id) i
 WHERE a.id = p_agent_id
$$;

-- Changing a layer's default (a slug, '' or NULL for inherit): every scope beneath that layer
-- whose effective default would change, and how many conversations follow it there.
CREATE OR REPLACE FUNCTION preview_default_change(p_layer_tenant bigint, p_layer_project bigint, p_value text)
RETURNS TABLE (kind text, tenant_id bigint, project_id bigint, before_slug text, after_slug text,
               before_agent_id bigint, before_layer text, after_agent_id bigint, after_layer text,
               orphaned boolean, conversations bigint)
LANGUAGE sql STABLE
AS $$
SELECT 'default', s.tenant_id, s.project_id, b.default_agent, COALESCE(d.default_agent, ''),
       b.agent_id, ba.layer, aa.agent_id, aa.layer,
       COALESCE(d.default_agent, '') <> '' AND aa.agent_id IS NULL,
       (SELECT count(*) FROM public.conversations c
         WHERE c.tenant_id = s.tenant_id AND c.project_id IS NOT DISTINCT FROM s.project_id
           AND c.agent_slug IS NULL)
  FROM public.scopes s
 CROSS JOIN LATERAL public.resolve_default_agent(s.tenant_id, s.project_id) b
  LEFT JOIN LATERAL public.resolve_agent(s.tenant_id, s.project_id, b.default_agent) ba ON true
  LEFT JOIN LATERAL public.configured_default_agent_if(s.tenant_id, s.project_id, p_layer_tenant,
                                                p_layer_project, p_value) d ON true
  LEFT JOIN LATERAL public.resolve_agent(s.tenant_id, s.project_id, d.default_agent) aa ON true
 WHERE (p_layer_tenant IS NULL OR s.tenant_id = p_layer_tenant)
   AND (p_layer_project IS NULL OR s.project_id = p_layer_project)
   AND (b.default_agent IS DISTINCT FROM COALESCE(d.default_agent, '')
        OR b.agent_id IS DISTINCT FROM aa.agent_id)
$$;
