"""A comparable picture of a database's schema, read from the catalogs (never from SQL text)."""

from __future__ import annotations

import psycopg

QUERIES = {
    "columns": """
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attgenerated, a.attidentity, a.attnum, a.attstattarget
          FROM pg_attribute a
          JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
           AND c.relkind IN ('r', 'v') AND c.relname <> 'alembic_version'""",
    "constraints": """
        SELECT conrelid::regclass::text, conname, pg_get_constraintdef(c.oid)
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = 'public' AND conrelid::regclass::text <> 'alembic_version'""",
    "indexes": """
        SELECT indexname, indexdef FROM pg_indexes
         WHERE schemaname = 'public' AND tablename <> 'alembic_version'""",
    "views": """
        SELECT c.relname, pg_get_viewdef(c.oid), c.reloptions
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'v'""",
    "functions": """
        SELECT p.proname, pg_get_function_identity_arguments(p.oid), pg_get_functiondef(p.oid)
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'public'""",
    "triggers": """
        SELECT tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
          JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND NOT t.tgisinternal""",
    "security": """
        SELECT c.relname, c.relkind, c.relrowsecurity, c.relforcerowsecurity, c.relowner::regrole::text,
               c.relacl::text, c.reloptions
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'S') AND c.relname NOT LIKE 'alembic_version%'""",
    "policies": """
        SELECT tablename, policyname, permissive, roles::text, cmd, qual, with_check
          FROM pg_policies WHERE schemaname = 'public'""",
    "function_security": """
        SELECT p.proname, p.prosecdef, p.proconfig, p.proowner::regrole::text, p.provolatile
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'""",
    "comments": """
        SELECT c.relname, d.objsubid, d.description
          FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
          JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND d.classoid = 'pg_class'::regclass
        UNION ALL
        SELECT p.proname, 0, d.description
          FROM pg_description d JOIN pg_proc p ON p.oid = d.objoid
          JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'public' AND d.classoid = 'pg_proc'::regclass""",
}


def snapshot(conn: psycopg.Connection) -> dict[str, list[tuple]]:
    return {kind: sorted(conn.execute(query).fetchall(), key=repr) for kind, query in QUERIES.items()}
