-- Who may be holding the NOTIFY queue's tail (docs/dba.md, "What PostgreSQL 15 cannot bound";
-- hostile-tenant round 5, #19). A listening session reads notifications only between
-- transactions, so one that LISTENs and stays in an open transaction keeps every later
-- notification in the queue; when the queue (8 GB) is full, every transaction that notifies
-- fails — every write to agents, opt-outs, defaults, conversations' pins, groups and terms,
-- through the registry's triggers. PostgreSQL cannot tell which sessions listen; it logs
-- "NOTIFY queue is N% full … The server process with PID … is among those with the oldest
-- transactions" from 50% on. Run this (as a superuser or a member of pg_signal_backend) when
-- pg_notification_queue_usage() climbs, and end the oldest: SELECT pg_terminate_backend(pid).
SELECT a.pid, a.usename, a.state, now() - a.xact_start AS open_for,
       pg_notification_queue_usage() AS queue_usage
  FROM pg_stat_activity a
 WHERE a.backend_type = 'client backend'
   AND a.state IN ('idle in transaction', 'idle in transaction (aborted)')
   AND a.pid <> pg_backend_pid()
 ORDER BY a.xact_start;
