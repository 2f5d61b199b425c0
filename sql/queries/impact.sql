-- What a change would do, without making it (sql/replaceable/impact.sql); each runs in a
-- read-only snapshot transaction.

-- name: preview_removal
-- What deleting, disabling or unpublishing an agent would change.
SELECT * FROM preview_agent_removal(%s);

-- name: preview_optout
-- What hiding an inherited agent in a project would change.
SELECT * FROM preview_optout(%s, %s);

-- name: preview_default
-- What setting a layer's default agent would change.
SELECT * FROM preview_default_change(%s, %s, %s);
