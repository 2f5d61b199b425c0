-- agent_versions' read policy as it was before revision 0012, for a database taken down below it
-- (no scope_tenant_id there: the history follows its agent through an EXISTS, which runs as a
-- filter — docs/security.md). Frozen: from 0012 on, agents_keep_history.sql has the policy.
-- since revision 0003
-- before revision 0012

CREATE POLICY agent_versions_app_read ON public.agent_versions FOR SELECT TO registry_app
    USING (EXISTS (SELECT 1 FROM public.agents a WHERE a.id = agent_versions.agent_id));
