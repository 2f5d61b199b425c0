-- Revision 0005, undone: tool profiles and project instruction files go, with their contents.
ALTER TABLE projects DROP COLUMN instruction_file;
ALTER TABLE agents DROP COLUMN tool_profile;
