-- Revision 0005 — context assembly: agents.tool_profile, projects.instruction_file.
ALTER TABLE agents ADD COLUMN tool_profile jsonb NULL;
ALTER TABLE agents ADD CONSTRAINT agents_tool_profile_shape
    CHECK (tool_profile IS NULL OR jsonb_typeof(tool_profile) = 'object');
ALTER TABLE projects ADD COLUMN instruction_file text NOT NULL DEFAULT '';
ALTER TABLE projects ADD CONSTRAINT projects_instruction_file_length
    CHECK (char_length(normalize(instruction_file, NFC)) <= 8000);

COMMENT ON COLUMN agents.tool_profile IS 'Narrows the tools the product exposes with this agent: {"include": [globs], "exclude": [globs], "require_verified": bool, "max_tools": n}. NULL = no narrowing.';
COMMENT ON COLUMN projects.instruction_file IS 'The project''s instruction file, stored here: it outranks every AGENTS.md of the workspace. Passes the instruction gate on write.';
