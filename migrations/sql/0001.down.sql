-- Revision 0001, undone: every table of the core, dependents first. Data goes with them.
DROP TABLE conversations;
DROP TABLE agent_defaults;
DROP TABLE agent_optouts;
DROP TABLE agents;
DROP TABLE projects;
DROP TABLE tenants;
