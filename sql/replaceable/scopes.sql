-- Every place a question can be asked: each tenant alone (project_id NULL) and each project.
-- A UNION ALL, so a filter on project_id or tenant_id reaches the right branch's index.

CREATE OR REPLACE VIEW scopes WITH (security_invoker = true) AS
SELECT t.id AS tenant_id, NULL::bigint AS project_id
  FROM public.tenants t
UNION ALL
SELECT p.tenant_id, p.id AS project_id
  FROM public.projects p;

COMMENT ON VIEW scopes IS 'Every scope: each tenant alone (project_id NULL) and each of its projects.';
