-- Hardening a database against its own tenants' logins (docs/dba.md, "Hardening: what a
-- superuser runs"; hostile-tenant rounds 4 and 5). Run by a superuser, once per database a
-- tenant login may connect to: these functions belong to the bootstrap superuser, so a
-- migration run by the database's owner cannot revoke them. Function privileges are per
-- database; re-run on a copy (CREATE DATABASE … TEMPLATE copies them, a restore of a dump
-- taken without --no-acl too). `registry harden` runs this file and then limits each named
-- login (CONNECTION LIMIT, temp_file_limit); `registry harden --sql` prints the whole script.
--
-- Idempotent: revoking what PUBLIC no longer holds is a no-op.

-- Advisory locks live in the cluster's one shared lock table (max_locks_per_transaction ×
-- max_connections entries): ~7,900 of them from one login made every other tenant's queries
-- and new connections fail "out of shared memory" (round 5, #17), and the session-level form
-- outlives every timeout. The registry takes none. Only the functions that take a lock are
-- revoked: pg_advisory_unlock(…) and pg_advisory_unlock_all() release the caller's own locks
-- only, and registry.db's pool reset calls pg_advisory_unlock_all() for every app login.
REVOKE EXECUTE ON FUNCTION
    pg_advisory_lock(bigint), pg_advisory_lock(integer, integer),
    pg_advisory_lock_shared(bigint), pg_advisory_lock_shared(integer, integer),
    pg_advisory_xact_lock(bigint), pg_advisory_xact_lock(integer, integer),
    pg_advisory_xact_lock_shared(bigint), pg_advisory_xact_lock_shared(integer, integer),
    pg_try_advisory_lock(bigint), pg_try_advisory_lock(integer, integer),
    pg_try_advisory_lock_shared(bigint), pg_try_advisory_lock_shared(integer, integer),
    pg_try_advisory_xact_lock(bigint), pg_try_advisory_xact_lock(integer, integer),
    pg_try_advisory_xact_lock_shared(bigint), pg_try_advisory_xact_lock_shared(integer, integer)
FROM PUBLIC;

-- Large objects: any login may create them, outside every table's caps and row-level security
-- (round 4, #42). The registry uses none.
REVOKE EXECUTE ON FUNCTION
    lo_create(oid), lo_creat(integer), lo_from_bytea(oid, bytea), lo_import(text), lo_import(text, oid),
    lo_put(oid, bigint, bytea), lo_open(oid, integer), lo_truncate(integer, integer), lo_truncate64(integer, bigint)
FROM PUBLIC;

-- Not revoked, on purpose: pg_notify(text, text). NOTIFY is a statement with no privilege at
-- all, so a login denied the function sends the same flood with NOTIFY (in a DO block or a
-- pipeline); docs/dba.md says how the NOTIFY queue is watched instead.

-- Logical decoding messages: pg_logical_emit_message() writes its payload to the WAL, outside
-- every table's caps — 3 GB in 7.5 s from one tenant login (round 6), which every replica and
-- the WAL archive then carry. The registry emits none.
REVOKE EXECUTE ON FUNCTION
    pg_logical_emit_message(boolean, text, text), pg_logical_emit_message(boolean, text, bytea)
FROM PUBLIC;

-- WAL positions and the transaction-id counter (round 10, R05): a login that reads
-- pg_current_wal_lsn() before and after another tenant's write (the one LISTEN announces) reads
-- its size, a byte of WAL per byte written (the report: 288 bytes for a 10-character note, 536
-- for 250);
-- pg_stat_wal's wal_bytes the same a second later, the replay position on a standby the same as
-- it replays, a physical slot's position as its standby confirms, the checkpoint's as each
-- checkpoint ends. pg_current_xact_id() and its kin count everyone's write transactions, and
-- pg_xact_status() tells whether another's committed or rolled back. Revoked from PUBLIC and given
-- back to those who need them: the services (registry_service, and staff) read the insert and
-- replay positions for read-your-writes (Registry.last_commit_lsn, registry.replicas,
-- registry.watch); monitoring (pg_monitor) reads them all. A login without them still writes
-- and reads; its reads after its own writes are served by the primary (docs/dba.md).
-- Still readable, and not revoked (monitoring reads them, docs/operations.md's wraparound query
-- too): age(xid) and pg_database.datfrozenxid, which give the transaction-id counter, and
-- pg_stat_activity's backend_xid — activity, not sizes.
REVOKE EXECUTE ON FUNCTION
    pg_current_wal_lsn(), pg_current_wal_insert_lsn(), pg_current_wal_flush_lsn(),
    pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn(), pg_stat_get_wal(), pg_get_replication_slots(),
    pg_stat_get_replication_slot(text),
    pg_control_checkpoint(), pg_control_recovery(),
    pg_current_xact_id(), pg_current_xact_id_if_assigned(), txid_current(), txid_current_if_assigned(),
    pg_current_snapshot(), txid_current_snapshot(), pg_xact_status(xid8), txid_status(bigint)
FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    pg_current_wal_lsn(), pg_current_wal_insert_lsn(), pg_current_wal_flush_lsn(),
    pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn(), pg_stat_get_wal(), pg_get_replication_slots(),
    pg_stat_get_replication_slot(text),
    pg_control_checkpoint(), pg_control_recovery(),
    pg_current_xact_id(), pg_current_xact_id_if_assigned(), txid_current(), txid_current_if_assigned(),
    pg_current_snapshot(), txid_current_snapshot(), pg_xact_status(xid8), txid_status(bigint)
TO pg_monitor;
DO $$
DECLARE
    r name;
BEGIN
    -- The registry's own roles exist once it is migrated; harden may run on a database before.
    FOR r IN SELECT rolname FROM pg_roles WHERE rolname IN ('registry_service', 'registry_admin', 'registry_owner') LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION pg_current_wal_lsn(), pg_current_wal_insert_lsn(), '
                       'pg_current_wal_flush_lsn(), pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn() TO %I', r);
    END LOOP;
END
$$;

-- A row's lockers (round 13, R17): an opt-out's foreign key takes FOR KEY SHARE on the agent it
-- names, and an official agent is a row every tenant reads. Two tenants opting out of it at once make
-- its xmax a multixact, and pg_get_multixact_members(xmax) listed both lockers' transaction ids — that
-- another transaction referenced the row, and when, against the caller's own ids. The registry calls
-- it nowhere; monitoring keeps it. Not revoked, because no privilege covers it: xmax itself, a system
-- column every reader of the row has, like ctid (docs/security.md, "What is not covered").
REVOKE EXECUTE ON FUNCTION pg_get_multixact_members(xid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pg_get_multixact_members(xid) TO pg_monitor;

-- Planner statistics on customer text (round 6, #1): revision 0010 sets their statistics target
-- to 0, which stops ANALYZE sampling them but leaves what it sampled before; only a superuser
-- may delete that. A column of a row-level-security table with target 0 has no statistics to keep.
DELETE FROM pg_statistic s
 USING pg_attribute a, pg_class c
 WHERE s.starelid = a.attrelid AND s.staattnum = a.attnum AND a.attrelid = c.oid
   AND c.relrowsecurity AND a.attstattarget = 0;
