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
-- Record that a conversation adopted the agent it runs with now; returns that agent's id.
SELECT adopt_conversation_agent(%s);

-- name: conversations_of_project
-- A project's conversations, oldest first (registry demo).
SELECT id FROM public.conversations WHERE project_id = %s ORDER BY id;
