-- An opt-out names a project and an agent; this trigger copies the project's tenant and
-- the agent's layer onto the row so that agent_optouts_inherited_only and the composite
-- foreign keys can check it declaratively — and keep checking it if the agent moves.
-- It raises the same constraint names itself, with a message a console user can act on.

CREATE OR REPLACE FUNCTION agent_optouts_fill_scope() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    SELECT p.tenant_id INTO NEW.tenant_id FROM public.projects p WHERE p.id = NEW.project_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'project % does not exist', NEW.project_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'agent_optouts_project_fk',
                  TABLE = 'agent_optouts';
    END IF;

    SELECT a.scope_tenant_id, a.scope_project_id
      INTO NEW.agent_scope_tenant_id, NEW.agent_scope_project_id
      FROM public.agents a WHERE a.id = NEW.agent_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'agent % does not exist', NEW.agent_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'agent_optouts_agent_fk',
                  TABLE = 'agent_optouts';
    END IF;

    IF NEW.agent_scope_project_id <> 0
       OR NEW.agent_scope_tenant_id NOT IN (0, NEW.tenant_id) THEN
        RAISE EXCEPTION 'agent % is not inherited by project %', NEW.agent_id, NEW.project_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_optouts_inherited_only',
                  TABLE = 'agent_optouts',
                  HINT = 'A project can opt out only of an official agent or of its own tenant''s agents; '
                         'to hide a project''s own agent, disable or delete it.';
    END IF;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION agent_optouts_fill_scope() IS 'Trigger: copies the project''s tenant and the agent''s layer onto an opt-out, refusing non-inherited agents.';

CREATE OR REPLACE TRIGGER agent_optouts_fill_scope BEFORE INSERT OR UPDATE ON public.agent_optouts
    FOR EACH ROW EXECUTE FUNCTION public.agent_optouts_fill_scope();
