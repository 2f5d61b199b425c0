-- Revision 0016 down: max_tools any whole number again, as revision 0015 left the check. Values
-- the upgrade lowered to 10,000 stay 10,000 (the same tools exposed).
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
                    'lax $.max_tools ? (@.type() != "null" && (@.type() != "number" || @ < 0 || @.floor() != @))')));
