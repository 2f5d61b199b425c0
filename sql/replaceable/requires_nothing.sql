-- Whether an agent's `requires` names nothing this registry reads as a requirement: no
-- "grupos"/"groups"/"termos"/"terms" key (docs/design.md, "Resolution rules", rule 7).
--
-- The one place that lists those keys: agent_missing starts with this test, and so does
-- conversation_agents before it calls agent_missing_one. A single expression, IMMUTABLE and
-- not STRICT (a NULL requires requires nothing), so the planner inlines it: it costs what the
-- expression written in place would.

CREATE OR REPLACE FUNCTION requires_nothing(p_requires jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT p_requires IS NULL OR NOT p_requires ?| ARRAY['grupos', 'groups', 'termos', 'terms']
$$;

COMMENT ON FUNCTION requires_nothing(jsonb) IS 'True when requires has none of the keys that name requirements (grupos, groups, termos, terms).';
