-- The benchmark's own statements (registry/bench/run.py); its (a), (b) and (c) call the
-- application's statements of resolution.sql, and (d) the API's write path.

-- name: bench_baseline
-- (e) The physical floor of one round trip, on the table (a) starts from.
SELECT id, tenant_id, project_id, agent_slug FROM public.conversations WHERE id = %s;

-- name: bench_catalog_view
-- (b) The catalog through the view.
SELECT * FROM public.effective_agents WHERE project_id = %s;

-- name: bench_catalog_menu
-- (b) What a menu shows (no instructions, no requires): the same function, fewer columns shipped.
SELECT slug, agent_id, layer, version, name, description, when_to_use FROM resolve_agents(%s, %s);

-- name: peer_conversation
-- (a') The Python-merge peer, what a team writes when the resolution is not in the database:
-- the conversation.
SELECT tenant_id, project_id, agent_slug FROM public.conversations WHERE id = %s;

-- name: peer_defaults
-- (a') The peer: the defaults of the conversation's layers.
SELECT scope_tenant_id, scope_project_id, default_agent FROM public.agent_defaults
 WHERE scope_tenant_id IN (0, %s) AND scope_project_id IN (0, %s) AND default_agent IS NOT NULL;

-- name: peer_candidates
-- (a') The peer: the slug's candidates in the three layers.
SELECT id, scope_tenant_id, scope_project_id, requires FROM public.agents
 WHERE slug = %s AND scope_tenant_id IN (0, %s) AND scope_project_id IN (0, %s)
   AND status = 'published' AND enabled;

-- name: peer_scope_names
-- (a') The peer, when the winner requires something: the scope's dataset groups and glossary
-- terms, keyed as the database keys them (case-folded, NFC).
SELECT 'groups', name_key FROM public.dataset_groups WHERE tenant_id = %(tenant_id)s AND scope_project_id IN (0, %(project_id)s)
UNION ALL
SELECT 'terms', name_key FROM public.glossary_terms WHERE tenant_id = %(tenant_id)s AND scope_project_id IN (0, %(project_id)s);

-- name: peer_opted_out
-- (a') The peer: whether the project opted out of the winner.
SELECT 1 FROM public.agent_optouts WHERE project_id = %s AND agent_id = %s;

-- name: peer_layer
-- (b') The peer: one layer's published and enabled agents.
SELECT id, slug, layer, version, name, description, when_to_use, requires, instructions
  FROM public.agents
 WHERE scope_tenant_id = %s AND scope_project_id = %s AND status = 'published' AND enabled;

-- name: peer_optouts
-- (b') The peer: the project's opt-outs.
SELECT agent_id FROM public.agent_optouts WHERE project_id = %s;

-- name: bench_explain_view
-- (f) One slug explained through the console view, filtered as a console would.
SELECT * FROM public.agent_explanations WHERE project_id = %s AND slug = %s;

-- name: bench_official_slugs
-- The official layer's slugs, which (f) explains (tenants override many of them).
SELECT slug FROM public.agents WHERE scope_tenant_id = 0 AND scope_project_id = 0 ORDER BY slug;

-- name: bench_conversations
-- Every conversation's id, for the clients to draw from.
SELECT id FROM public.conversations;

-- name: bench_projects
-- Every project with its tenant, for the clients to draw from.
SELECT id, tenant_id FROM public.projects;

-- name: bench_update_targets
-- The agents (d) may change: generated ones only (created_by 'bench'), never a user's own.
SELECT id FROM public.agents WHERE tenant_id IS NOT NULL AND created_by = 'bench'
 ORDER BY md5(id::text) LIMIT 4000;

-- name: bench_has_data
-- Whether the database given with --url already holds data (then it is benchmarked as it is).
SELECT EXISTS (SELECT FROM public.tenants);

-- name: server_setting
-- A server setting, for the report of the machine the figures come from.
SELECT current_setting(%s);
