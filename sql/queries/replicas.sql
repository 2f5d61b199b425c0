-- WAL positions: where a write's commit ends on the primary, and how far a replica has replayed
-- (registry.replicas, registry.api.Registry, registry.watch). PostgreSQL grants these functions
-- to PUBLIC; `registry harden` revokes them and gives them back to registry_service and staff
-- (hostile round 10, R05), so a tenant's own login is refused them: each caller says what then.

-- name: commit_position
-- Right after a commit, on the same connection: a WAL position at or past the commit's record,
-- so a replica that has replayed it sees the commit. The insert position, not the flushed one:
-- with synchronous_commit = off the commit may not be flushed yet, and it is where it will end.
SELECT pg_current_wal_insert_lsn()::text;

-- name: replayed_position
-- How far this server's data goes: a standby's replayed position, or a primary's own (a read
-- URL that names the primary is always up to date).
SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END::text;

-- name: in_recovery
-- Whether this server is a hot standby (which refuses LISTEN and every write).
SELECT pg_is_in_recovery();

-- name: listening_position
-- The watcher's read of the primary's position after a notification (registry.watch): the
-- LISTEN again first (a no-op) so that the session still shows as a listener in
-- pg_stat_activity.query, where operators and scripts look for it. One round trip.
LISTEN registry_changes; SELECT pg_current_wal_insert_lsn()::text;

-- name: may_read_position
-- Whether this login may read the primary's WAL position (registry.watch asks once a connection:
-- after `registry harden`, a tenant's own login may not, and its changes then carry none).
SELECT has_function_privilege('pg_catalog.pg_current_wal_insert_lsn()', 'EXECUTE');

-- name: listening
-- The watcher's LISTEN again after a notification, for a login that may not read the position
-- (listening_position without its second statement).
LISTEN registry_changes;
