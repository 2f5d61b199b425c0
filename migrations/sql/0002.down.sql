-- Revision 0002, undone: the history goes (agents keep their current version number).
DROP TABLE agent_versions;
