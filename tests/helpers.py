"""Small helpers shared by the tests: building scenarios and reading resolution both ways."""

from __future__ import annotations

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb


def tenant(db: psycopg.Connection, slug: str) -> int:
    return db.execute("INSERT INTO tenants (slug, name) VALUES (%s, %s) RETURNING id", (slug, slug.title())).fetchone()[0]


def project(db: psycopg.Connection, tenant_id: int, slug: str) -> int:
    return db.execute("INSERT INTO projects (tenant_id, slug) VALUES (%s, %s) RETURNING id", (tenant_id, slug)).fetchone()[0]


def agent(db: psycopg.Connection, slug: str, tenant_id: int | None = None, project_id: int | None = None,
          status: str = "published", enabled: bool = True, instructions: str = "Escreva com clareza.",
          requires: dict | None = None) -> int:
    return db.execute(
        """INSERT INTO agents (tenant_id, project_id, slug, name, instructions, status, enabled, requires)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id""",
        (tenant_id, project_id, slug, slug, instructions, status, enabled, Jsonb(requires or {})),
    ).fetchone()[0]


def bind_tenant_login(db: psycopg.Connection, login: str, tenant_id: int) -> None:
    """Make `login` a member of registry_tenant_<tenant_id> and of no other tenant's role. Roles
    belong to the cluster and outlive a test's database, whose tenant ids start again at 1."""
    db.execute(f"""DO $$ DECLARE r record; BEGIN
        FOR r IN SELECT b.rolname FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid
                  WHERE m.member = '{login}'::regrole AND b.rolname LIKE 'registry_tenant_%' LOOP
            EXECUTE format('REVOKE %I FROM {login}', r.rolname);
        END LOOP;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_tenant_{tenant_id}') THEN
            CREATE ROLE registry_tenant_{tenant_id} NOLOGIN;
        END IF; END $$""")
    db.execute(f"GRANT registry_tenant_{tenant_id} TO {login}")


def vocabulary(db: psycopg.Connection, kind: str, tenant_id: int, project_id: int | None, *names: str) -> None:
    """Give a scope dataset groups (kind "group") or glossary terms ("term")."""
    table = {"group": "dataset_groups", "term": "glossary_terms"}[kind]
    for name in names:
        db.execute(f"INSERT INTO {table} (tenant_id, project_id, name) VALUES (%s, %s, %s)",  # table from the dict above
                   (tenant_id, project_id, name))


def set_default(db: psycopg.Connection, default_agent: str | None, tenant_id: int | None = None,
                project_id: int | None = None) -> None:
    db.execute(
        """INSERT INTO agent_defaults (tenant_id, project_id, default_agent) VALUES (%s, %s, %s)
           ON CONFLICT (scope_tenant_id, scope_project_id) DO UPDATE SET default_agent = EXCLUDED.default_agent""",
        (tenant_id, project_id, default_agent),
    )


def conversation(db: psycopg.Connection, tenant_id: int, project_id: int | None, agent_slug: str | None) -> int:
    return db.execute(
        "INSERT INTO conversations (tenant_id, project_id, agent_slug) VALUES (%s, %s, %s) RETURNING id",
        (tenant_id, project_id, agent_slug),
    ).fetchone()[0]


def rows(db: psycopg.Connection, query: str, params: tuple = ()) -> list[dict]:
    with db.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, params).fetchall()


class Resolver:
    """Asks the same question through the console views or through the service functions."""

    def __init__(self, db: psycopg.Connection, via: str) -> None:
        self.db, self.via = db, via

    def agents(self, tenant_id: int, project_id: int | None = None) -> dict[str, dict]:
        if self.via == "view":
            result = rows(self.db, "SELECT * FROM effective_agents WHERE tenant_id = %s AND project_id IS NOT DISTINCT FROM %s",
                          (tenant_id, project_id))
        else:
            result = rows(self.db, "SELECT * FROM resolve_agents(%s, %s)", (tenant_id, project_id))
        return {r["slug"]: r for r in result}

    def default(self, tenant_id: int, project_id: int | None = None) -> dict:
        if self.via == "view":
            result = rows(self.db, "SELECT * FROM effective_default_agent WHERE tenant_id = %s AND project_id IS NOT DISTINCT FROM %s",
                          (tenant_id, project_id))
        else:
            result = rows(self.db, "SELECT * FROM resolve_default_agent(%s, %s)", (tenant_id, project_id))
        assert len(result) == 1, result
        return result[0]

    def conversation(self, conversation_id: int) -> dict:
        if self.via == "view":
            result = rows(self.db, "SELECT * FROM conversation_agents WHERE conversation_id = %s", (conversation_id,))
        else:
            result = rows(self.db, "SELECT * FROM resolve_conversation_agent(%s)", (conversation_id,))
        assert len(result) == 1, result
        return result[0]


# -- query plans (EXPLAIN (FORMAT JSON)) ----------------------------------------------------------
def plan(db: psycopg.Connection, query: str, params: tuple) -> dict:
    return db.execute("EXPLAIN (FORMAT JSON) " + query, params).fetchone()[0][0]["Plan"]


def plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from plan_nodes(child)


def seq_scanned(tree: dict) -> set[str]:
    return {n["Relation Name"] for n in plan_nodes(tree) if n["Node Type"] == "Seq Scan"}


def indexes_used(tree: dict) -> set[str]:
    return {n["Index Name"] for n in plan_nodes(tree) if "Index Name" in n}


# How EXPLAIN prints the read policies' inline calls (sql/replaceable/policies.sql; hostile round
# 11, R01): registry_current_tenant() as its CASE, registry_visible_tenants() as its NULLIF.
CURRENT_TENANT_PRINTED = r"CASE WHEN \(\(current_setting\('registry\.tenant_id'::text, true\) .*? END"
VISIBLE_TENANTS_PRINTED = r"NULLIF\(ARRAY\['0'::bigint, " + CURRENT_TENANT_PRINTED + r"\], '\{0,NULL\}'::bigint\[\]\)"
