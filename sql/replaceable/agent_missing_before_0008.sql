-- agent_missing below revision 0008, where no scope lists groups or terms yet: every agent is
-- available. It keeps the resolution functions working on a database taken down below 0008;
-- from 0008 on, agent_missing.sql replaces it (registry/schema.py, "before revision").
-- before revision 0008

CREATE OR REPLACE FUNCTION agent_missing(p_tenant_id bigint, p_project_id bigint, p_requires jsonb)
RETURNS TABLE (available boolean, missing jsonb)
LANGUAGE sql STABLE
AS $$
SELECT true, '{"groups": [], "terms": []}'::jsonb
$$;

COMMENT ON FUNCTION agent_missing(bigint, bigint, jsonb) IS 'Below revision 0008: every agent is available.';
