-- What one agent's `requires` names that a scope lacks, for a caller that asks about one row:
-- conversation_agents, where a conversation has one agent.
--
-- The answer is agent_missing's (the same rule, not a copy of it). Why a second entry point:
-- agent_missing is inlined where it is called, so every plan that calls it carries its lookups
-- (the scope's names, the per-name search) as plan nodes that are started on every execution,
-- even when the CASE never reaches them. For a catalog, started once for ~230 agents, that is
-- nothing; for a conversation — one row, resolved on every request — it was ~60 µs of a ~190 µs
-- resolution whether or not the agent required anything. Behind a PL/pgSQL call, its plan is
-- made once per session and run only for an agent that requires something; an agent that
-- requires nothing (the official ones, most others) is answered by the caller's key test.
-- SECURITY INVOKER like the rest: the caller's row-level security applies to the lookups.

CREATE OR REPLACE FUNCTION agent_missing_one(p_tenant_id bigint, p_project_id bigint, p_requires jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN (SELECT m.missing FROM public.agent_missing(p_tenant_id, p_project_id, p_requires) m);
END
$$;

COMMENT ON FUNCTION agent_missing_one(bigint, bigint, jsonb) IS 'agent_missing''s missing for one agent, planned once per session: for callers resolving one row (conversation_agents).';
