-- Revision 0006 — the same 8,000-character cap, checked cheaply: NFC at most triples a text's
-- length (UAX #15), so a text of 2,666 characters or fewer cannot exceed the cap and skips
-- normalize() (~70 µs a row on a bulk load). The rule itself does not change.
ALTER TABLE agents DROP CONSTRAINT agents_instructions_length;
ALTER TABLE agents ADD CONSTRAINT agents_instructions_length CHECK (
    char_length(instructions) <= 2666 OR char_length(normalize(instructions, NFC)) <= 8000);
ALTER TABLE projects DROP CONSTRAINT projects_instruction_file_length;
ALTER TABLE projects ADD CONSTRAINT projects_instruction_file_length
    CHECK (char_length(instruction_file) <= 2666 OR char_length(normalize(instruction_file, NFC)) <= 8000);
