-- Revision 0013 down: the parents' keys by id again, as revision 0012 left them.
ALTER TABLE convention_versions DROP CONSTRAINT convention_versions_convention_fk;
ALTER TABLE conventions DROP CONSTRAINT conventions_scope_tenant_id_key;
ALTER TABLE conventions ADD CONSTRAINT conventions_id_scope_tenant_key UNIQUE (id, scope_tenant_id);
ALTER TABLE convention_versions ADD CONSTRAINT convention_versions_convention_fk FOREIGN KEY (convention_id, scope_tenant_id)
    REFERENCES conventions (id, scope_tenant_id) ON UPDATE CASCADE ON DELETE CASCADE;
