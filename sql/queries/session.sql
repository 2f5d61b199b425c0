-- The statements that set up a transaction for its user (registry.api.Registry.transaction,
-- registry.cli.session.acting_tenant). Settings are transaction-local (set_config's third
-- argument, SET LOCAL): a pooled connection carries nothing to its next user.

-- name: outer_state
-- The tenant, actor and role of the transaction a nested one runs inside, put back on the way out.
SELECT COALESCE(current_setting('registry.tenant_id', true), ''),
       COALESCE(current_setting('registry.actor', true), ''), current_user, session_user;

-- name: snapshot_transaction
-- Read-only, and every query of the transaction sees the same committed state (impact previews).
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY;

-- name: set_actor
-- Who makes the change, for created_by and the history (sql/replaceable/agents_keep_history.sql).
SELECT set_config('registry.actor', %s, true);

-- name: set_tenant
-- The tenant whose rows row-level security shows this transaction (sql/replaceable/policies.sql).
SELECT set_config('registry.tenant_id', %s, true);

-- name: restore_tenant_and_actor
-- The outer transaction's tenant and actor again, after a nested one ('' = not set).
SELECT set_config('registry.tenant_id', %s, true), set_config('registry.actor', %s, true);

-- name: set_local_role
-- Act as a role until the transaction ends. Composed: {role} is a psycopg.sql.Identifier, as a
-- role's name cannot be a parameter.
SET LOCAL ROLE {role};

-- name: reset_local_role
-- Back to the login's own role until the transaction ends.
SET LOCAL ROLE NONE;
