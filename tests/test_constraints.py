"""What the database itself refuses (docs/design.md, "Data model"), each by its constraint's name."""

from __future__ import annotations

import re

import psycopg
import pytest
from psycopg import errors

from tests.helpers import agent, project, rows, tenant


@pytest.fixture
def scope(db):
    t = tenant(db, "acme")
    g = tenant(db, "globex")
    return {"t": t, "p": project(db, t, "sales"), "q": project(db, t, "ops"), "g": g, "gp": project(db, g, "lab")}


def refused(db, constraint: str, query: str, params: tuple = ()) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as caught:
        db.execute(query, params)
    assert caught.value.diag.constraint_name == constraint, caught.value
    return caught.value


INSERT_AGENT = "INSERT INTO agents (tenant_id, project_id, slug, instructions) VALUES (%s, %s, %s, %s)"


@pytest.mark.parametrize("layer", ["official", "tenant", "project"])
def test_second_agent_with_the_same_slug_in_a_layer_is_refused(db, scope, layer):
    tenant_id = None if layer == "official" else scope["t"]
    project_id = scope["p"] if layer == "project" else None
    db.execute(INSERT_AGENT, (tenant_id, project_id, "analyst", "x"))
    error = refused(db, "agents_layer_slug_key", INSERT_AGENT, (tenant_id, project_id, "analyst", "y"))
    assert isinstance(error, errors.UniqueViolation)


def test_same_slug_in_different_layers_is_the_layering_itself(db, scope):
    for tenant_id, project_id in [(None, None), (scope["t"], None), (scope["t"], scope["p"]), (scope["g"], None)]:
        db.execute(INSERT_AGENT, (tenant_id, project_id, "analyst", "x"))
    assert rows(db, "SELECT count(*) AS n FROM agents")[0]["n"] == 4


def test_project_row_must_carry_its_projects_tenant(db, scope):
    refused(db, "agents_project_fk", INSERT_AGENT, (scope["g"], scope["p"], "analyst", "x"))


def test_project_without_tenant_is_refused(db, scope):
    refused(db, "agents_project_needs_tenant", INSERT_AGENT, (None, scope["p"], "analyst", "x"))


def test_moving_a_project_row_to_another_tenant_is_refused(db, scope):
    agent_id = agent(db, "analyst", scope["t"], scope["p"])
    refused(db, "agents_project_fk", "UPDATE agents SET tenant_id = %s WHERE id = %s", (scope["g"], agent_id))


@pytest.mark.parametrize("slug", ["Analyst", "analyst_1", "-analyst", "analyst-", "an--alyst", "an alyst", "", "a" * 81, "análise"])
def test_bad_slug_is_refused(db, slug):
    refused(db, "agents_slug_format", INSERT_AGENT, (None, None, slug, "x"))


@pytest.mark.parametrize("slug", ["a", "analyst", "analista-financeiro-2", "a" * 80])
def test_good_slug_is_accepted(db, slug):
    db.execute(INSERT_AGENT, (None, None, slug, "x"))


def test_instructions_cap_is_8000_characters_not_bytes(db):
    db.execute(INSERT_AGENT, (None, None, "ascii", "x" * 8000))
    db.execute(INSERT_AGENT, (None, None, "accented", "é" * 8000))  # 16,000 bytes
    refused(db, "agents_instructions_length", INSERT_AGENT, (None, None, "too-long", "x" * 8001))


def test_instructions_cap_counts_after_nfc(db):
    decomposed = "e\u0301" * 8000  # 16,000 code points, 8,000 characters once composed
    db.execute(INSERT_AGENT, (None, None, "nfd", decomposed))


def test_unknown_status_is_refused(db):
    refused(db, "agents_status_known",
            "INSERT INTO agents (slug, status) VALUES ('analyst', 'archived')")


@pytest.mark.parametrize("requires", ['[]', '"x"', '{"grupos": "financeiro"}', '{"grupos": [1]}',
                                      '{"grupos": [["a"]]}', '{"grupos": [null]}', '{"a": {"b": []}}'])
def test_requires_must_be_an_object_of_string_arrays(db, requires):
    refused(db, "agents_requires_shape", "INSERT INTO agents (slug, requires) VALUES ('analyst', %s::jsonb)", (requires,))


@pytest.mark.parametrize("requires", ['{}', '{"grupos": [], "termos": []}', '{"grupos": ["financeiro"], "termos": ["receita", "margem"]}'])
def test_requires_accepts_empty_and_string_arrays(db, requires):
    db.execute("INSERT INTO agents (slug, requires) VALUES ('analyst', %s::jsonb)", (requires,))


def test_every_other_column_has_a_default(db, scope):
    db.execute("INSERT INTO agents (slug) VALUES ('bare')")
    db.execute("INSERT INTO tenants (slug) VALUES ('bare')")
    db.execute("INSERT INTO projects (tenant_id, slug) VALUES (%s, 'bare')", (scope["t"],))
    db.execute("INSERT INTO conversations (tenant_id) VALUES (%s)", (scope["t"],))
    db.execute("INSERT INTO agent_defaults DEFAULT VALUES")
    row = rows(db, "SELECT status, version, enabled, uses, requires, layer FROM agents WHERE slug = 'bare'")[0]
    assert row == {"status": "draft", "version": 1, "enabled": True, "uses": 0, "requires": {}, "layer": "official"}


INSERT_OPTOUT = "INSERT INTO agent_optouts (project_id, agent_id) VALUES (%s, %s)"


def test_opt_out_of_an_inherited_agent_is_accepted(db, scope):
    db.execute(INSERT_OPTOUT, (scope["p"], agent(db, "official")))
    db.execute(INSERT_OPTOUT, (scope["p"], agent(db, "mine", scope["t"])))
    row = rows(db, "SELECT tenant_id FROM agent_optouts LIMIT 1")[0]
    assert row["tenant_id"] == scope["t"]


def test_opt_out_of_the_projects_own_row_is_refused(db, scope):
    error = refused(db, "agent_optouts_inherited_only", INSERT_OPTOUT, (scope["p"], agent(db, "own", scope["t"], scope["p"])))
    assert "not inherited" in str(error)


def test_opt_out_of_a_sibling_projects_row_is_refused(db, scope):
    refused(db, "agent_optouts_inherited_only", INSERT_OPTOUT, (scope["p"], agent(db, "sibling", scope["t"], scope["q"])))


def test_opt_out_of_another_tenants_row_is_refused(db, scope):
    refused(db, "agent_optouts_inherited_only", INSERT_OPTOUT, (scope["p"], agent(db, "theirs", scope["g"])))


def test_opt_out_of_unknown_project_or_agent_is_refused(db, scope):
    refused(db, "agent_optouts_project_fk", INSERT_OPTOUT, (999, agent(db, "official")))
    refused(db, "agent_optouts_agent_fk", INSERT_OPTOUT, (scope["p"], 999))


def test_an_opted_out_agent_cannot_be_moved_out_of_the_inherited_layers(db, scope):
    agent_id = agent(db, "official")
    db.execute(INSERT_OPTOUT, (scope["p"], agent_id))
    refused(db, "agent_optouts_agent_fk", "UPDATE agents SET tenant_id = %s WHERE id = %s", (scope["g"], agent_id))


def test_one_default_row_per_layer(db, scope):
    insert = "INSERT INTO agent_defaults (tenant_id, project_id, default_agent) VALUES (%s, %s, %s)"
    for tenant_id, project_id in [(None, None), (scope["t"], None), (scope["t"], scope["p"])]:
        db.execute(insert, (tenant_id, project_id, "analyst"))
        refused(db, "agent_defaults_pkey", insert, (tenant_id, project_id, ""))


def test_default_must_be_a_slug_or_empty(db, scope):
    insert = "INSERT INTO agent_defaults (tenant_id, project_id, default_agent) VALUES (%s, %s, %s)"
    refused(db, "agent_defaults_slug_format", insert, (None, None, "Not A Slug"))
    refused(db, "agent_defaults_project_fk", insert, (scope["g"], scope["p"], "analyst"))
    refused(db, "agent_defaults_project_needs_tenant", insert, (None, scope["p"], "analyst"))


def test_conversation_agent_slug_and_scope(db, scope):
    insert = "INSERT INTO conversations (tenant_id, project_id, agent_slug) VALUES (%s, %s, %s)"
    refused(db, "conversations_agent_slug_format", insert, (scope["t"], None, "Bad Slug"))
    refused(db, "conversations_project_fk", insert, (scope["g"], scope["p"], None))
    for ok in (None, "", "analyst"):
        db.execute(insert, (scope["t"], scope["p"], ok))


@pytest.mark.parametrize("table", ["tenants", "projects", "agents", "conversations"])
def test_ids_are_positive(db, scope, table):
    columns = {"tenants": "(id, slug) VALUES (0, 'zero')", "projects": f"(id, tenant_id, slug) VALUES (0, {scope['t']}, 'zero')",
               "agents": "(id, slug) VALUES (0, 'zero')", "conversations": f"(id, tenant_id) OVERRIDING SYSTEM VALUE VALUES (0, {scope['t']})"}
    refused(db, f"{table}_id_positive", f"INSERT INTO {table} {columns[table]}")


def test_updated_at_is_kept_by_the_database(db, scope):
    agent_id = agent(db, "analyst")
    db.execute("UPDATE agents SET updated_at = '2000-01-01', created_at = '2000-01-01' WHERE id = %s", (agent_id,))
    row = rows(db, "SELECT created_at, updated_at, updated_at > '2001-01-01' AS fresh FROM agents WHERE id = %s", (agent_id,))[0]
    assert row["fresh"], row
    for table, key in [("tenants", scope["t"]), ("projects", scope["p"])]:
        db.execute(f"UPDATE {table} SET updated_at = '2000-01-01' WHERE id = %s", (key,))
        assert rows(db, f"SELECT updated_at > '2001-01-01' AS fresh FROM {table} WHERE id = %s", (key,))[0]["fresh"]


def test_every_constraint_is_named_explicitly(db):
    """No name PostgreSQL made up (…_check, …_fkey, …_not_null style) — each is in tables.sql."""
    from registry.schema import tables_sql

    names = [r["conname"] for r in rows(db, """
        SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = 'public' AND contype <> 'n'""")]
    assert names
    missing = [n for n in names if not re.search(rf"CONSTRAINT {n}\s", tables_sql())]
    assert missing == []


def test_a_content_change_bumps_version_and_keeps_the_old_content(db):
    agent_id = agent(db, "analyst", instructions="first")
    db.execute("UPDATE agents SET status = 'draft', enabled = false WHERE id = %s", (agent_id,))
    assert rows(db, "SELECT version FROM agents WHERE id = %s", (agent_id,))[0]["version"] == 1
    db.execute("BEGIN")
    db.execute("SELECT set_config('registry.actor', 'ana@acme', true)")
    db.execute("UPDATE agents SET instructions = 'second' WHERE id = %s", (agent_id,))
    db.execute("COMMIT")
    db.execute("UPDATE agents SET name = 'Analyst', version = 99 WHERE id = %s", (agent_id,))
    assert rows(db, "SELECT version, instructions FROM agents WHERE id = %s", (agent_id,))[0] == {
        "version": 3, "instructions": "second"}
    history = rows(db, "SELECT version, instructions, name, replaced_by FROM agent_versions WHERE agent_id = %s ORDER BY version",
                   (agent_id,))
    assert [(h["version"], h["instructions"], h["name"]) for h in history] == [(1, "first", "analyst"), (2, "second", "analyst")]
    assert history[0]["replaced_by"] == "ana@acme"
    assert history[1]["replaced_by"] == "postgres"
    db.execute("DELETE FROM agents WHERE id = %s", (agent_id,))
    assert rows(db, "SELECT count(*) AS n FROM agent_versions")[0]["n"] == 0
