"""The rules docs/scale.md commits to now, so that distributing by tenant (Citus) does not get
quietly harder: read from the catalog of a database built from sql/.

Each rule lists the places that break it today, with the reason, and the list must be exact: a
new table, key or reference that breaks a rule fails here, and so does an exception that no
longer exists (docs/scale.md's "what would have to change" must stay true)."""

from __future__ import annotations

import psycopg

TENANT_TABLE = "tenants"

# Tables where tenant_id may be NULL: the official layer's rows (docs/design.md). Under Citus
# they move to reference tables (docs/scale.md).
OFFICIAL_ROWS = {"agents", "agent_defaults", "conventions"}

# Tables without tenant_id: the tenants themselves, and the exception listed in docs/scale.md.
# History tables, keyed by the row they keep and, since revision 0012, by its scope_tenant_id
# (0 for the official layer's history): each gains tenant_id under Citus.
NO_TENANT_COLUMN = {"agent_versions", "convention_versions"}

# Unique keys (primary keys included) without tenant_id or scope_tenant_id, as docs/scale.md lists
# them: Citus enforces a unique key only if it holds the distribution column.
UNIQUE_WITHOUT_TENANT = {
    "projects_pkey", "agents_pkey", "conventions_pkey",
}

# References between two tenant-carrying tables that do not carry the tenant on both sides.
REFERENCES_WITHOUT_TENANT = {
    "agent_optouts_agent_fk",   # (agent_id, agent_scope_tenant_id, …): may name an official agent (scope 0)
}

TABLES = """
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1
"""

COLUMNS = """
SELECT c.relname, a.attname, a.attnotnull FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
"""

CONSTRAINTS = """
SELECT con.conname, con.contype, src.relname, dst.relname,
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = con.conrelid AND attnum = ANY (con.conkey)),
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = con.confrelid AND attnum = ANY (con.confkey))
  FROM pg_constraint con JOIN pg_class src ON src.oid = con.conrelid
  LEFT JOIN pg_class dst ON dst.oid = con.confrelid
  JOIN pg_namespace n ON n.oid = src.relnamespace
 WHERE n.nspname = 'public' AND con.contype IN ('p', 'u', 'f')
"""


def _schema(db: psycopg.Connection):
    tables = {r[0] for r in db.execute(TABLES)}
    columns: dict[str, dict[str, bool]] = {}
    for table, column, not_null in db.execute(COLUMNS):
        columns.setdefault(table, {})[column] = not_null
    return tables, columns, db.execute(CONSTRAINTS).fetchall()


# key_tenant_id: agents' second copy of COALESCE(tenant_id, 0), first in the foreign keys' targets
# (revision 0014, docs/security.md "Hostile round 9", R16).
TENANT_KEYS = {"tenant_id", "scope_tenant_id", "key_tenant_id"}


def test_every_table_but_the_tenants_carries_tenant_id(db):
    tables, columns, _ = _schema(db)
    without = {t for t in tables if "tenant_id" not in columns[t]} - {TENANT_TABLE}
    assert without == NO_TENANT_COLUMN


def test_tenant_id_is_null_only_for_the_official_layers_rows(db):
    tables, columns, _ = _schema(db)
    nullable = {t for t in tables if "tenant_id" in columns[t] and not columns[t]["tenant_id"]}
    assert nullable == OFFICIAL_ROWS


def test_unique_keys_hold_the_tenant_but_the_listed_ones(db):
    _, _, constraints = _schema(db)
    without = {name for name, kind, table, _, cols, _ in constraints
               if kind in ("p", "u") and table != TENANT_TABLE and not TENANT_KEYS & set(cols)}
    assert without == UNIQUE_WITHOUT_TENANT


def test_references_within_a_tenant_carry_the_tenant_on_both_sides(db):
    _, _, constraints = _schema(db)
    without = set()
    for name, kind, table, target, cols, target_cols in constraints:
        if kind != "f":
            continue
        if target == TENANT_TABLE:
            assert cols == ["tenant_id"] and target_cols == ["id"], name      # the tenant itself
            continue
        if not (TENANT_KEYS & set(cols) and TENANT_KEYS & set(target_cols)):
            without.add(name)
    assert without == REFERENCES_WITHOUT_TENANT


def test_every_table_has_row_level_security_forced(db):
    rows = db.execute("SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                      "WHERE n.nspname = 'public' AND c.relkind = 'r' "
                      "AND NOT (c.relrowsecurity AND c.relforcerowsecurity)").fetchall()
    assert rows == []
