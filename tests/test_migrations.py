"""Alembic: a migrated database equals one built from sql/, revisions go down and up with data,
and the offline script needs no database."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest

from registry import migrate
from registry.paths import MIGRATIONS_DIR, ROOT
from registry.seeding import load_seeds
from tests.catalog import snapshot


def test_migrated_database_equals_the_one_built_from_sql(db, empty_db_url):
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as migrated:
        expected, actual = snapshot(db), snapshot(migrated)
    for kind in expected:
        assert actual[kind] == expected[kind], f"{kind} differ between sql/ and the migrations"
    assert expected["views"] and expected["functions"] and expected["triggers"]


def test_upgrading_from_0010_equals_the_one_built_from_sql(db, empty_db_url):
    """Revision 0011 split four FOR ALL policies into read and write ones: a database that had the
    old ones must lose them (each would OR its condition into the reads again, docs/security.md).
    They go with `DROP FUNCTION registry_current_tenant CASCADE` at the start of every run."""
    migrate.upgrade(empty_db_url, "0010")  # with this checkout's policies: put 0010's back
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        for table in ("agent_optouts", "agent_defaults", "conversations", "conventions"):
            conn.execute(f"""CREATE POLICY {table}_app_own ON {table} FOR ALL TO registry_app
                             USING (tenant_id = registry_current_tenant())
                             WITH CHECK (tenant_id = registry_current_tenant())""")
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as migrated:
        expected, actual = snapshot(db), snapshot(migrated)
    # The privileges' order in an ACL follows the order they were granted in; not compared.
    for kind in ("policies", "indexes", "constraints", "columns"):
        assert actual[kind] == expected[kind], f"{kind} differ between sql/ and 0010 upgraded to head"


def test_upgrade_downgrade_upgrade_with_data(empty_db_url):
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        load_seeds(conn)
        assert conn.execute("SELECT count(*) FROM effective_agents").fetchone()[0] > 0
    migrate.downgrade(empty_db_url, "base")
    with psycopg.connect(empty_db_url) as conn:
        left = conn.execute("""SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                WHERE n.nspname = 'public' AND c.relname NOT LIKE 'alembic_version%'""").fetchone()[0]
        functions = conn.execute("""SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                                     WHERE n.nspname = 'public'""").fetchone()[0]
        assert (left, functions) == (0, 0)
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        load_seeds(conn)
        assert conn.execute("SELECT count(*) FROM conversation_agents").fetchone()[0] == 5


def test_upgrading_twice_is_harmless_and_keeps_data(empty_db_url):
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        load_seeds(conn)
    migrate.upgrade(empty_db_url, "head")  # re-applies the replaceable objects
    with psycopg.connect(empty_db_url) as conn:
        assert conn.execute("SELECT count(*) FROM effective_agents").fetchone()[0] > 0


def test_offline_script_needs_no_database():
    env = {k: v for k, v in os.environ.items() if k != "REGISTRY_DATABASE_URL"}
    result = subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head", "--sql"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    script = result.stdout
    for expected in ("CREATE TABLE agents", "CREATE OR REPLACE VIEW effective_agents",
                     "CREATE OR REPLACE FUNCTION resolve_conversation_agent", "INSERT INTO alembic_version",
                     "COMMIT;"):
        assert expected in script
    # Colons and percent signs reach the script as written (no bind-parameter mangling).
    assert "'strict $.* ? (@.type() != \"array\")'" in script
    assert "\\:" not in script and "%%" not in script
    assert script == migrate.offline_script("head")  # byte-stable


def test_every_revision_has_its_sql_both_ways():
    revisions = sorted(p.stem.split("_")[0] for p in (MIGRATIONS_DIR / "versions").glob("*.py"))
    assert revisions
    for revision in revisions:
        for direction in ("up", "down"):
            assert (MIGRATIONS_DIR / "sql" / f"{revision}.{direction}.sql").is_file()


@pytest.mark.parametrize("url", ["postgresql://nobody@127.0.0.1:1/none"])
def test_unreachable_database_is_one_clear_error(url):
    from registry.errors import DatabaseUnavailable

    with pytest.raises(DatabaseUnavailable, match="cannot migrate"):
        migrate.upgrade(url, "head")


def test_downgrade_to_an_intermediate_revision_leaves_a_working_database(empty_db_url):
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        load_seeds(conn)
    migrate.downgrade(empty_db_url, "0001")
    with psycopg.connect(empty_db_url) as conn:
        assert conn.execute("SELECT to_regclass('agent_versions')").fetchone() == (None,)
        # The history trigger of revision 0002 is gone with its table: edits still work.
        conn.execute("UPDATE agents SET instructions = instructions || '.'")
        assert conn.execute("SELECT count(*) FROM effective_agents").fetchone()[0] > 0
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        conn.execute("UPDATE agents SET instructions = instructions || '!'")
        assert conn.execute("SELECT count(*) FROM agent_versions").fetchone()[0] > 0


def test_snapshot_comparison_can_tell_databases_apart(db, empty_db_url):
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url, autocommit=True) as migrated:
        migrated.execute("COMMENT ON COLUMN agents.slug IS 'changed'")
        assert snapshot(migrated)["comments"] != snapshot(db)["comments"]


def test_the_migration_takes_temp_away_from_public_and_works_on_a_hardened_schema(empty_db_url):
    """Revision 0007 on a database whose public schema was hardened first (REVOKE ALL … FROM
    PUBLIC): migrations succeed, an app login can use the registry, and it may not create
    temporary objects."""
    from registry.api import Registry

    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        conn.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC")
        conn.execute("""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_hardened_app') THEN
                CREATE ROLE registry_hardened_app LOGIN;
            END IF; END $$""")
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        load_seeds(conn)
        conn.execute("GRANT registry_app, registry_service TO registry_hardened_app")
        tenant_id = conn.execute("SELECT id FROM tenants WHERE slug = 'acme'").fetchone()[0]
        temp = conn.execute("SELECT has_database_privilege('registry_app', current_database(), 'TEMP'), "
                            "has_database_privilege('public', current_database(), 'TEMP')").fetchone()
    assert temp == (False, False)
    app_url = empty_db_url.replace("://postgres@", "://registry_hardened_app@")
    assert app_url != empty_db_url
    with psycopg.connect(app_url) as conn:
        agents = Registry(conn).for_tenant(tenant_id, role=None).agents(tenant_id, "financeiro")
        assert {a.slug for a in agents} >= {"analista-de-caixa"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE TEMP TABLE shadow (id int)")


def _history_world(conn: psycopg.Connection) -> None:
    """Agents of the three layers and conventions, each edited so its history trigger kept versions."""
    conn.execute("INSERT INTO tenants (slug) VALUES ('acme'), ('globex')")
    conn.execute("INSERT INTO projects (tenant_id, slug) SELECT id, 'p' FROM tenants")
    conn.execute("""INSERT INTO agents (tenant_id, project_id, slug, instructions)
                    SELECT NULL::bigint, NULL::bigint, 'oficial', 'v1' UNION ALL
                    SELECT t.id, NULL, 'own-' || t.slug, 'v1' FROM tenants t UNION ALL
                    SELECT p.tenant_id, p.id, 'proj', 'v1' FROM projects p""")
    conn.execute("""INSERT INTO conventions (tenant_id, project_id, directory, body)
                    SELECT NULL::bigint, NULL::bigint, '', 'v1' UNION ALL SELECT p.tenant_id, p.id, 'src', 'v1' FROM projects p""")
    for step in (2, 3):
        conn.execute("UPDATE agents SET instructions = %s", (f"v{step}",))
        conn.execute("UPDATE conventions SET body = %s", (f"v{step}",))


HISTORY = {  # each version row as revision 0011 keeps it, with the layer its parent is in
    "agent_versions": """SELECT v.agent_id, v.version, v.instructions, v.replaced_by, v.replaced_at, a.scope_tenant_id
                           FROM agent_versions v JOIN agents a ON a.id = v.agent_id ORDER BY 1, 2""",
    "convention_versions": """SELECT v.convention_id, v.version, v.body, v.replaced_by, v.replaced_at, c.scope_tenant_id
                                FROM convention_versions v JOIN conventions c ON c.id = v.convention_id ORDER BY 1, 2""",
}


def test_upgrading_0011_with_history_backfills_its_tenant_and_downgrading_keeps_every_version(db, empty_db_url):
    """Revision 0012 copies each version's parent's scope_tenant_id (0 for the official layer's) and
    equals sql/ afterwards; undone, it leaves 0011's exact shape and every version row."""
    migrate.upgrade(empty_db_url, "0011")
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        _history_world(conn)
        before = {table: conn.execute(query).fetchall() for table, query in HISTORY.items()}
        shape_0011 = snapshot(conn)
    assert len(before["agent_versions"]) == 10 and len(before["convention_versions"]) == 6
    assert {row[-1] for row in before["agent_versions"]} == {0, 1, 2}  # official, acme, globex

    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        for table, query in HISTORY.items():
            assert conn.execute(query).fetchall() == before[table]
            copied = query.replace("SELECT v.", "SELECT v.scope_tenant_id, v.", 1)
            assert all(row[0] == row[-1] for row in conn.execute(copied)), table  # the parent's layer key
        expected, actual = snapshot(db), snapshot(conn)
        for kind in ("policies", "indexes", "constraints", "columns", "functions", "triggers", "comments"):
            assert actual[kind] == expected[kind], f"{kind} differ between sql/ and 0011 upgraded to head"
        # Edits after the upgrade are kept with their tenant by the new trigger.
        conn.execute("UPDATE agents SET instructions = 'v4' WHERE slug = 'own-acme'")
        assert conn.execute("SELECT v.scope_tenant_id = t.id FROM agent_versions v JOIN agents a ON a.id = v.agent_id "
                            "JOIN tenants t ON t.slug = 'acme' WHERE a.slug = 'own-acme' AND v.version = 3").fetchall() == [(True,)]
        conn.rollback()

    migrate.downgrade(empty_db_url, "0011")
    with psycopg.connect(empty_db_url) as conn:
        assert {table: conn.execute(query).fetchall() for table, query in HISTORY.items()} == before
        after = snapshot(conn)
    for kind in shape_0011:
        assert _unordered_acls(after[kind]) == _unordered_acls(shape_0011[kind]), \
            f"{kind} differ between 0011 and 0012 taken down to 0011"


def _unordered_acls(rows: list[tuple]) -> list[tuple]:
    """An ACL lists privileges in the order they were granted in (re-granted by every run): as a set."""
    return sorted((tuple(sorted(v.strip("{}").split(",")) if isinstance(v, str) and v.startswith("{") and "=" in v
                         else v for v in row) for row in rows), key=repr)


def test_the_backfill_needs_no_superuser(empty_db_url):
    """The policies are dropped while a revision runs and FORCE holds the tables' owner to them: the
    backfill turns row-level security off for its own statements, so a login that is a member of
    registry_owner (not a superuser) upgrades a 0011 database with history too."""
    migrate.upgrade(empty_db_url, "0011")
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        _history_world(conn)
        conn.execute("""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'registry_migrator') THEN
                CREATE ROLE registry_migrator LOGIN NOSUPERUSER NOBYPASSRLS;
            END IF; END $$""")
        conn.execute("GRANT registry_owner TO registry_migrator")
        conn.execute("ALTER TABLE alembic_version OWNER TO registry_owner")
        assert conn.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = 'registry_migrator'"
                            ).fetchone() == (False,)
    owner_url = empty_db_url.replace("://postgres@", "://registry_migrator@")
    assert owner_url != empty_db_url
    migrate.upgrade(owner_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        assert conn.execute("SELECT count(*), count(*) FILTER (WHERE v.scope_tenant_id = a.scope_tenant_id) "
                            "FROM agent_versions v JOIN agents a ON a.id = v.agent_id").fetchone() == (10, 10)
        assert conn.execute("SELECT relname FROM pg_class WHERE relname IN ('agents', 'agent_versions', "
                            "'conventions', 'convention_versions') AND NOT (relrowsecurity AND relforcerowsecurity)"
                            ).fetchall() == []


def test_downgrading_0013_gives_0012s_keys_back(empty_db_url):
    """Revision 0013 (hostile round 9, R17) leads the conventions' history key with
    scope_tenant_id; undone, the indexes and constraints are 0012's again, the history's foreign
    key on the key by id."""
    migrate.upgrade(empty_db_url, "0012")
    with psycopg.connect(empty_db_url) as conn:
        shape_0012 = snapshot(conn)
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url) as conn:
        at_head = snapshot(conn)
    assert at_head["constraints"] != shape_0012["constraints"]
    migrate.downgrade(empty_db_url, "0012")
    with psycopg.connect(empty_db_url) as conn:
        after = snapshot(conn)
    for kind in ("indexes", "constraints", "columns", "policies"):
        assert after[kind] == shape_0012[kind], f"{kind} differ between 0012 and 0013 taken down to 0012"


KINDS_A_DOWNGRADE_GIVES_BACK = ("indexes", "constraints", "columns", "policies")


def _down_and_up_again(url: str, below: str, fill, count: str, kinds=KINDS_A_DOWNGRADE_GIVES_BACK) -> tuple:
    """At `below`, then at head with `fill(conn)`'s rows, then taken down to `below` again: the schema
    `below` had (`kinds` of the catalog compared), the rows `count` counts kept, and up again the
    constraints head had. Returns those counts."""
    migrate.upgrade(url, below)
    with psycopg.connect(url) as conn:
        shape_below = snapshot(conn)
    migrate.upgrade(url, "head")
    with psycopg.connect(url, autocommit=True) as conn:
        fill(conn)
        counts = conn.execute(count).fetchone()
        at_head = snapshot(conn)
    assert at_head["constraints"] != shape_below["constraints"] and at_head["columns"] != shape_below["columns"]
    migrate.downgrade(url, below)
    with psycopg.connect(url) as conn:
        after = snapshot(conn)
        assert conn.execute(count).fetchone() == counts
    for kind in kinds:
        assert after[kind] == shape_below[kind], f"{kind} differ between {below} and head taken down to {below}"
    migrate.upgrade(url, "head")
    with psycopg.connect(url) as conn:
        assert snapshot(conn)["constraints"] == at_head["constraints"]
    return counts


def test_downgrading_0014_gives_0013s_keys_back_and_keeps_the_rows(empty_db_url):
    """Revision 0014 (hostile round 9, R16) adds agents.key_tenant_id and leads the foreign keys'
    targets with it; undone, the column goes, the keys by id and the foreign keys on them are 0013's
    again, and every opt-out and version stays — and up again, they are validated on the new keys."""
    def fill(conn: psycopg.Connection) -> None:
        load_seeds(conn)
        conn.execute("UPDATE agents SET instructions = instructions || ' Revista.'")
        conn.execute("""INSERT INTO agent_optouts (project_id, agent_id)
                        SELECT p.id, a.id FROM projects p JOIN agents a ON a.layer = 'official' LIMIT 3""")
        assert conn.execute("SELECT count(*) FROM agents WHERE key_tenant_id <> scope_tenant_id").fetchone() == (0,)

    counts = _down_and_up_again(empty_db_url, "0013", fill,
                                "SELECT (SELECT count(*) FROM agent_versions), (SELECT count(*) FROM agent_optouts)")
    assert counts[0] > 0 and counts[1] >= 3


def test_downgrading_0015_gives_0014s_key_back_and_keeps_the_rows(empty_db_url):
    """Revision 0015 (hostile round 10, R01) makes the conversations' primary key (id, tenant_id) and
    their id GENERATED ALWAYS; undone, the key by id alone and BY DEFAULT are 0014's again (the id's
    comment too), every conversation and adoption stays, and up again the identity goes on from
    where it was."""
    counts = _down_and_up_again(empty_db_url, "0014", load_seeds,
                                "SELECT (SELECT count(*) FROM conversations), (SELECT count(*) FROM agent_adoptions)",
                                (*KINDS_A_DOWNGRADE_GIVES_BACK, "comments"))
    assert counts[0] > 0 and counts[1] > 0
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        tenant = conn.execute("SELECT tenant_id FROM conversations LIMIT 1").fetchone()[0]
        new = conn.execute("INSERT INTO conversations (tenant_id) VALUES (%s) RETURNING id", (tenant,)).fetchone()[0]
        assert new > conn.execute("SELECT max(id) FROM conversations WHERE id <> %s", (new,)).fetchone()[0]


def test_downgrading_0015_over_a_shared_id_fails_and_changes_nothing(empty_db_url):
    """Since 0015 only the owner or a superuser can write an id (OVERRIDING SYSTEM VALUE, COPY), and
    no key stops one shared by two tenants' conversations; the key by id alone cannot be built over
    it, so the downgrade fails whole and the database stays at 0015."""
    migrate.upgrade(empty_db_url, "head")
    with psycopg.connect(empty_db_url, autocommit=True) as conn:
        load_seeds(conn)
        taken, tenant = conn.execute("SELECT id, tenant_id FROM conversations LIMIT 1").fetchone()
        other = conn.execute("SELECT id FROM tenants WHERE id <> %s LIMIT 1", (tenant,)).fetchone()[0]
        conn.execute("INSERT INTO conversations (id, tenant_id) OVERRIDING SYSTEM VALUE VALUES (%s, %s)", (taken, other))
        before = snapshot(conn)
    with pytest.raises(Exception, match="conversations_pkey|could not create unique index"):
        migrate.downgrade(empty_db_url, "0014")
    assert migrate.current_revision(empty_db_url) == migrate.revisions()[-1]
    with psycopg.connect(empty_db_url) as conn:
        assert snapshot(conn) == before
