-- Conversations: started, pinned, adopting their agent, and listed for the demo.

-- name: insert_conversation
-- A new conversation: agent_slug NULL follows the scope's default, '' runs without an agent, a
-- slug pins it.
INSERT INTO public.conversations (tenant_id, project_id, slug, title, agent_slug)
VALUES (%s, %s, %s, %s, %s) RETURNING id;

-- name: pin_conversation
-- Pin a conversation to a slug ('' = explicitly no agent), or unpin it (NULL).
UPDATE public.conversations SET agent_slug = %s WHERE id = %s;

-- name: adopt_conversation_agent
-- Record that a conversation adopted the agent it runs with now, at its version now, and the
-- fingerprint of the prompt built with it (NULL: none built); returns that agent's id.
SELECT adopt_conversation_agent(%s, %s);

-- name: conversations_of_project
-- A project's conversations, oldest first (registry demo).
SELECT id FROM public.conversations WHERE project_id = %s ORDER BY id;

-- name: demo_availability
-- The agents of a tenant's projects that require something, with their availability in each
-- (registry demo): through effective_agents, filtered as a console would.
SELECT e.slug, e.project_slug, e.available, e.missing
  FROM public.effective_agents e
 WHERE e.tenant_id = %s AND e.project_id IS NOT NULL
   AND jsonb_path_exists(e.requires, '$.*[*]')
 ORDER BY e.slug, e.project_slug;
