-- Revision 0016 — a tool profile's max_tools is at most 10,000 (hostile-tenant round 14, A11;
-- docs/security.md, "Hostile round 14"). The shape check let any whole number through, and the
-- app role writes its own agents in SQL: acme stored {"max_tools": 1e4300}, which jsonb prints as
-- 4,301 digits and no Python reader parses (int's 4,300-digit limit), so staff's `registry export`
-- of every tenant stopped on acme's row and globex was never written. registry.limits.MAX_TOOLS
-- holds the bound, as the pydantic model does.
--
-- A larger value already stored becomes 10,000 first: max_tools keeps the first N tools of the
-- narrowed list, and no catalogue holds 10,000, so the agent exposes exactly what it did. The
-- check is then added and validated over every agent, with agents locked until the commit. The
-- lowered value is an edit like any other: the agent's history keeps the old profile and its
-- version goes up (agents_keep_history).
UPDATE agents SET tool_profile = jsonb_set(tool_profile, '{max_tools}', '10000')
 WHERE jsonb_typeof(tool_profile -> 'max_tools') = 'number' AND (tool_profile ->> 'max_tools')::numeric > 10000;
ALTER TABLE agents DROP CONSTRAINT agents_tool_profile_shape;
ALTER TABLE agents ADD CONSTRAINT agents_tool_profile_shape CHECK (
        tool_profile IS NULL OR (
            jsonb_typeof(tool_profile) = 'object'
            AND tool_profile - ARRAY['include', 'exclude', 'require_verified', 'max_tools'] = '{}'::jsonb
            AND jsonb_typeof(COALESCE(tool_profile -> 'include', '[]')) = 'array'
            AND jsonb_typeof(COALESCE(tool_profile -> 'exclude', '[]')) = 'array'
            AND NOT jsonb_path_exists(tool_profile, 'lax $.include[*] ? (@.type() != "string")')
            AND NOT jsonb_path_exists(tool_profile, 'lax $.exclude[*] ? (@.type() != "string")')
            AND jsonb_typeof(COALESCE(tool_profile -> 'require_verified', 'false')) = 'boolean'
            AND NOT jsonb_path_exists(tool_profile,
                    'lax $.max_tools ? (@.type() != "null" && (@.type() != "number" || @ < 0 || @ > 10000 || @.floor() != @))')));
