-- Resolution explained (docs/design.md, "Resolution rules", rule 8): the functions of
-- sql/replaceable/explain_agent.sql.

-- name: explain_agent
-- Each layer's row of a slug in a scope, most specific first, with its verdict.
SELECT * FROM explain_agent(%s, %s, %s);

-- name: explain_default_agent
-- The default chain of a scope: each layer's default_agent and which layer decides.
SELECT * FROM explain_default_agent(%s, %s);
