-- What else holds back vacuum's horizon, with no session to end (docs/dba.md, "Transaction-id
-- wraparound: watched and ended"; sql/ops/xid_horizon.sql lists the sessions). A prepared
-- transaction (PREPARE TRANSACTION, two-phase commit) keeps its transaction id and snapshot after
-- its session ends, until someone commits or rolls it back; a replication slot keeps the xmin its
-- standby reported (hot_standby_feedback) and a logical slot the catalog_xmin its decoding needs,
-- whether or not anything is connected. Either stops VACUUM freezing past it in every database
-- of the cluster, and pg_terminate_backend cannot end it: the DBA decides (COMMIT PREPARED or
-- ROLLBACK PREPARED 'gid' in its database; a slot's consumer caught up, or
-- pg_drop_replication_slot('name') once it is abandoned). Run as a superuser or a member of
-- pg_monitor: `registry harden` revokes the slots' function from PUBLIC.
SELECT r.* FROM (
    SELECT 'prepared transaction' AS kind, p.gid AS name, p.owner::text AS login, p.database::text,
           age(p.transaction) AS xmin_age, NULL::integer AS catalog_xmin_age,
           extract(epoch FROM now() - p.prepared)::bigint AS open_seconds, NULL::boolean AS active
      FROM pg_prepared_xacts p
    UNION ALL
    SELECT 'replication slot', s.slot_name::text, NULL, s.database::text,
           age(s.xmin), age(s.catalog_xmin), NULL, s.active
      FROM pg_replication_slots s
     WHERE s.xmin IS NOT NULL OR s.catalog_xmin IS NOT NULL
) r
 ORDER BY greatest(r.xmin_age, r.catalog_xmin_age) DESC NULLS LAST, r.kind, r.name
