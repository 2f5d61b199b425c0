-- Revision 0009, undone: the conventions and their history go (with their rows: a downgrade
-- lists them first). Their policies, grants, trigger and view are dropped before this runs.
DROP TABLE convention_versions;
DROP TABLE conventions;
