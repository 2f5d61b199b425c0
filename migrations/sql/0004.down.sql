-- Revision 0004, undone: the adoptions go (agents.uses was never maintained from them).
DROP TABLE agent_adoptions;
COMMENT ON COLUMN agents.uses IS 'How many conversations adopted this agent — once per conversation, never per question.';
