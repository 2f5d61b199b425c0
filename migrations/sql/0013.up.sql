-- Revision 0013 — the conventions' key that revision 0012 added as their history's foreign-key
-- target leads with scope_tenant_id (hostile-tenant round 9, R17; R16 below; docs/security.md,
-- "EXPLAIN ANALYZE row counts"; ADR 0020). A key (id, scope_tenant_id) takes a caller's own
-- `scope_tenant_id = N` as an index condition over the whole index and leaves the read policy's
-- `scope_tenant_id = ANY (visible tenants)` a filter: EXPLAIN ANALYZE then counted another
-- tenant's conventions as "Rows Removed by Filter". A foreign key needs a unique key on its
-- columns in any order, so the history's foreign key keeps its columns.
--
-- Agents keep agents_id_scope_tenant_key and agents_id_scope_key by id (R16 stays open,
-- docs/security.md): with either rebuilt as (scope_tenant_id, id[, scope_project_id]) — even
-- with INCLUDE (slug) to widen it — the planner, under the tenant's read policy, costs it a hair
-- below agents_layer_slug_key (47.04 against 47.09 on tests/test_plans.py's data) and probes a
-- layer by it with the slug as a filter (tests/test_plans.py fails).
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_convention_fk;
ALTER TABLE conventions DROP CONSTRAINT conventions_id_scope_tenant_key;
ALTER TABLE conventions ADD CONSTRAINT conventions_scope_tenant_id_key UNIQUE (scope_tenant_id, id);
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_convention_fk FOREIGN KEY (convention_id, scope_tenant_id)
    REFERENCES conventions (id, scope_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;

