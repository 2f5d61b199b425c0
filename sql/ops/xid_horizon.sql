-- Who holds back vacuum's horizon (docs/dba.md, "Transaction-id wraparound: watched and ended";
-- hostile-tenant round 10, R06). A session with an open snapshot (backend_xmin) or transaction
-- (backend_xid) keeps VACUUM from freezing anything newer, in the whole database, however little
-- it read; meanwhile any login that may write can burn transaction ids (51,000 a second from one
-- connection, with rolled-back savepoints). Each database's age(datfrozenxid) then climbs, and at
-- 2^31 - 3,000,000 PostgreSQL refuses every transaction that needs an id, every tenant's write
-- included. PostgreSQL 15 bounds neither per login, and idle_in_transaction_session_timeout is
-- the login's own to lift. Run this as a superuser or a member of pg_read_all_stats (another
-- login's xact_start is hidden otherwise); end a tenant login's session with
-- SELECT pg_terminate_backend(pid). `registry horizon` runs this query, and with --terminate ends
-- the tenant logins' sessions past its limits.
-- The ages are the cluster's, not the session's (round 12, R07): another tenant burning ids in short
-- committed transactions makes a seconds-old transaction millions of ids old. Read open_seconds
-- before ending one for its age: `registry horizon` ends a session past --xid-age only once it has
-- also been open --xid-min-open (default 10 minutes).
SELECT a.pid, a.usename AS login, a.datname AS database, a.state, a.backend_start,
       age(a.backend_xmin) AS xmin_age, age(a.backend_xid) AS xid_age,
       floor(extract(epoch FROM now() - a.xact_start))::bigint AS open_seconds,  -- whole seconds, not rounded up
       -- A tenant's own login: registry_app, and neither a service, the owner nor a superuser.
       (NOT r.rolsuper AND pg_has_role(r.oid, 'registry_app', 'MEMBER')
        AND NOT pg_has_role(r.oid, 'registry_service', 'MEMBER')
        AND NOT pg_has_role(r.oid, 'registry_owner', 'MEMBER')) AS tenant_login,
       (SELECT max(age(d.datfrozenxid)) FROM pg_database d) AS cluster_xid_age
  FROM pg_stat_activity a
  JOIN pg_roles r ON r.oid = a.usesysid
 WHERE a.backend_type = 'client backend'
   AND a.pid <> pg_backend_pid()
   AND (a.backend_xmin IS NOT NULL OR a.backend_xid IS NOT NULL)
 ORDER BY greatest(age(a.backend_xmin), age(a.backend_xid)) DESC, a.pid
