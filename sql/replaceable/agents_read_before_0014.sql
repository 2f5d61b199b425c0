-- The agents' read policy as it was before revision 0014, for a database taken down below it (no
-- key_tenant_id there; the foreign keys' targets lead with the id, R16 in docs/security.md).
-- Frozen: from 0014 on, agents_read.sql has the policy.
-- since revision 0003
-- before revision 0014

CREATE POLICY agents_app_read ON public.agents FOR SELECT TO registry_app
    USING (scope_tenant_id = ANY (public.registry_visible_tenants()));
