-- Revision 0006, undone: the length checks normalise every text again.
ALTER TABLE agents DROP CONSTRAINT agents_instructions_length;
ALTER TABLE agents ADD CONSTRAINT agents_instructions_length CHECK (char_length(normalize(instructions, NFC)) <= 8000);
ALTER TABLE projects DROP CONSTRAINT projects_instruction_file_length;
ALTER TABLE projects ADD CONSTRAINT projects_instruction_file_length
    CHECK (char_length(normalize(instruction_file, NFC)) <= 8000);
