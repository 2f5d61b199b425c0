-- Resolution explained (docs/design.md, "Resolution rules", rule 8): for a scope and a slug, every
-- layer's row of that slug, most specific first, and why it won or lost. The verdicts:
--
--   effective         the winner: the most specific candidate (published and enabled)
--   shadowed          a candidate beneath the winner
--   draft, disabled   not a candidate (a draft that is also disabled says draft): the row beneath
--                     shows instead (rule 2)
--   hidden_by_optout  the winner, which the project opted out of: the slug is hidden (rule 3)
--   beneath_optout    a candidate beneath an opted-out winner: the opt-out keeps it hidden too
--
-- opted_out says whether the project opted out of that very row (an opt-out names a row: a
-- tenant override created later is a new row, and the opted-out official row beneath it is only
-- shadowed). available and missing are the scope's answer for each row's requires; availability
-- never changes a verdict (rule 7). The effective row is the one resolve_agent returns
-- (tests/test_explain.py checks it). No rows for an unknown scope or a slug no layer has.

CREATE OR REPLACE FUNCTION explain_agent(p_tenant_id bigint, p_project_id bigint, p_slug text)
RETURNS TABLE (
    layer     text,
    agent_id  bigint,
    status    text,
    enabled   boolean,
    version   integer,
    opted_out boolean,
    available boolean,
    missing   jsonb,
    verdict   text
)
LANGUAGE sql STABLE
AS $$
WITH layer_rows AS (
    SELECT a.id, a.layer, a.status, a.enabled, a.version, a.requires,
           a.scope_project_id * 2 + a.scope_tenant_id AS rank_key,  -- only its order matters
           a.status = 'published' AND a.enabled AS candidate,
           EXISTS (SELECT 1 FROM public.agent_optouts o
                    WHERE o.project_id = p_project_id AND o.agent_id = a.id) AS opted_out
      FROM public.agents a
     WHERE a.scope_tenant_id IN (0, p_tenant_id)
       AND a.scope_project_id IN (0, p_project_id)
       AND a.slug = p_slug
       AND EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = p_tenant_id)
       AND (p_project_id IS NULL
            OR EXISTS (SELECT 1 FROM public.projects p WHERE p.id = p_project_id AND p.tenant_id = p_tenant_id))
), winner AS (
    SELECT w.id, w.opted_out FROM layer_rows w WHERE w.candidate ORDER BY w.rank_key DESC LIMIT 1
)
SELECT r.layer, r.id, r.status, r.enabled, r.version, r.opted_out, m.available, m.missing,
       CASE WHEN NOT r.candidate THEN CASE WHEN r.status = 'draft' THEN 'draft' ELSE 'disabled' END
            WHEN r.id = w.id THEN CASE WHEN r.opted_out THEN 'hidden_by_optout' ELSE 'effective' END
            WHEN w.opted_out THEN 'beneath_optout'
            ELSE 'shadowed' END
  FROM layer_rows r
  LEFT JOIN winner w ON true
 CROSS JOIN LATERAL public.agent_missing(p_tenant_id, p_project_id, r.requires) m
 ORDER BY r.rank_key DESC
$$;

COMMENT ON FUNCTION explain_agent(bigint, bigint, text) IS 'Why a slug resolves as it does in a scope: each layer''s row (most specific first) with status, enabled, version, opted_out, availability and a verdict: effective, shadowed, draft, disabled, hidden_by_optout or beneath_optout.';

-- The default chain of a scope (rule 4): each layer's default_agent, most specific first — NULL
-- inherits, '' says none, a slug names that slug as resolved in the asking scope — and which
-- layer decides. For the deciding layer, the agent its slug resolves to and whether it is
-- orphaned or unavailable. A layer with no row says so with has_row = false.
CREATE OR REPLACE FUNCTION explain_default_agent(p_tenant_id bigint, p_project_id bigint)
RETURNS TABLE (
    layer         text,
    has_row       boolean,
    default_agent text,
    decides       boolean,
    agent_id      bigint,
    orphaned      boolean,
    available     boolean,
    missing       jsonb
)
LANGUAGE sql STABLE
AS $$
SELECT l.layer, ad.layer IS NOT NULL, ad.default_agent, l.layer = d.source_layer,
       CASE WHEN l.layer = d.source_layer THEN d.agent_id END,
       CASE WHEN l.layer = d.source_layer THEN d.orphaned END,
       CASE WHEN l.layer = d.source_layer AND d.agent_id IS NOT NULL THEN e.available END,
       CASE WHEN l.layer = d.source_layer AND d.agent_id IS NOT NULL THEN e.missing END
  FROM (VALUES ('project', 2, p_tenant_id, p_project_id), ('tenant', 1, p_tenant_id, 0::bigint),
               ('official', 0, 0::bigint, 0::bigint)) AS l (layer, rank, scope_tenant_id, scope_project_id)
  JOIN public.resolve_default_agent(p_tenant_id, p_project_id) d ON true
  LEFT JOIN public.agent_defaults ad
    ON ad.scope_tenant_id = l.scope_tenant_id AND ad.scope_project_id = l.scope_project_id
  LEFT JOIN LATERAL public.resolve_agent(p_tenant_id, p_project_id, d.default_agent) e ON d.agent_id IS NOT NULL
 WHERE l.scope_project_id IS NOT NULL
 ORDER BY l.rank DESC
$$;

COMMENT ON FUNCTION explain_default_agent(bigint, bigint) IS 'The default chain of a scope: each layer''s default_agent (most specific first), which layer decides, and whether the decided slug is orphaned or unavailable.';

CREATE OR REPLACE VIEW agent_explanations WITH (security_invoker = true) AS
-- For consoles: explain_agent for every scope and every slug some layer of it has. Filter by
-- tenant_slug, project_slug (or the ids) and slug: the filters reach the keys of tenants,
-- projects and agents, and only that slug is explained.
SELECT s.tenant_id, s.project_id, x.slug, e.layer, e.agent_id, e.status, e.enabled, e.version,
       e.opted_out, e.available, e.missing, e.verdict, t.slug AS tenant_slug, p.slug AS project_slug
  FROM public.scopes s
 CROSS JOIN LATERAL (SELECT DISTINCT a.slug FROM public.agents a
                      WHERE a.scope_tenant_id IN (0, s.tenant_id)
                        AND a.scope_project_id IN (0, s.project_id)) x
 CROSS JOIN LATERAL public.explain_agent(s.tenant_id, s.project_id, x.slug) e
  LEFT JOIN public.tenants t ON t.id = s.tenant_id
  LEFT JOIN public.projects p ON p.id = s.project_id;

COMMENT ON VIEW agent_explanations IS 'Why each slug resolves as it does in each scope: one row per layer that has the slug, with its verdict (see explain_agent). Filter by tenant_slug, project_slug and slug.';
