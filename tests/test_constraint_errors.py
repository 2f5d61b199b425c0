"""Every entry of the constraint map, triggered against a real PostgreSQL and checked to
become its domain error with an actionable message."""

from __future__ import annotations

import psycopg
import pytest

from registry.constraint_errors import CONSTRAINT_ERRORS, mapped_errors
from registry.errors import InvalidInput
from tests.helpers import agent, project, tenant

CONTEXT = {"slug": "analyst", "where": "the tenant layer of acme", "tenant": "acme", "project": "sales",
           "agent_slug": "Bad Slug"}

# constraint -> SQL that violates it ({t} acme, {p} acme/sales, {g} globex, {gp} globex/lab,
# {own} a project-layer agent of acme/sales, {theirs} a globex agent).
VIOLATIONS = {
    "agents_layer_slug_key": "INSERT INTO agents (tenant_id, slug) VALUES ({t}, 'dup')",
    "agents_tenant_fk": "INSERT INTO agents (tenant_id, slug) VALUES (999, 'x')",
    "agents_project_fk": "INSERT INTO agents (tenant_id, project_id, slug) VALUES ({g}, {p}, 'x')",
    "agents_project_needs_tenant": "INSERT INTO agents (project_id, slug) VALUES ({p}, 'x')",
    "agents_slug_format": "INSERT INTO agents (slug) VALUES ('Not A Slug')",
    "agents_name_length": "INSERT INTO agents (slug, name) VALUES ('x', repeat('n', 161))",
    "agents_description_length": "INSERT INTO agents (slug, description) VALUES ('x', repeat('d', 401))",
    "agents_when_to_use_length": "INSERT INTO agents (slug, when_to_use) VALUES ('x', repeat('w', 401))",
    "agents_instructions_length": "INSERT INTO agents (slug, instructions) VALUES ('x', repeat('i', 8001))",
    "agents_requires_shape": "INSERT INTO agents (slug, requires) VALUES ('x', '[1]')",
    "agents_requires_size": "INSERT INTO agents (slug, requires) VALUES ('x', jsonb_build_object('grupos', "
                            "(SELECT jsonb_agg(g::text) FROM generate_series(1, 65) g)))",
    "agents_tool_profile_size": "INSERT INTO agents (slug, tool_profile) VALUES ('x', jsonb_build_object('include', "
                                "jsonb_build_array(repeat('a', 20001))))",
    "agent_versions_replaced_by_length": "INSERT INTO agent_versions (agent_id, scope_tenant_id, version, name, "
                                         "description, when_to_use, requires, instructions, replaced_by) "
                                         "SELECT id, scope_tenant_id, 1, '', '', '', '{{}}', '', repeat('r', 121) "
                                         "FROM agents WHERE id = {theirs}",
    "agents_status_known": "INSERT INTO agents (slug, status) VALUES ('x', 'archived')",
    "agents_note_length": "INSERT INTO agents (slug, note) VALUES ('x', repeat('n', 256))",
    "agents_created_by_length": "INSERT INTO agents (slug, created_by) VALUES ('x', repeat('c', 121))",
    "agents_tool_profile_shape": "INSERT INTO agents (slug, tool_profile) VALUES ('x', '[\"*\"]')",
    "projects_instruction_file_length": "UPDATE projects SET instruction_file = repeat('i', 8001) WHERE id = {p}",
    "agent_optouts_inherited_only": "INSERT INTO agent_optouts (project_id, agent_id) VALUES ({p}, {own})",
    "agent_optouts_project_fk": "INSERT INTO agent_optouts (project_id, agent_id) VALUES (999, {theirs})",
    "agent_optouts_agent_fk": "INSERT INTO agent_optouts (project_id, agent_id) VALUES ({p}, 999)",
    "agent_defaults_tenant_fk": "INSERT INTO agent_defaults (tenant_id, default_agent) VALUES (999, 'x')",
    "agent_defaults_project_fk": "INSERT INTO agent_defaults (tenant_id, project_id) VALUES ({g}, {p})",
    "agent_defaults_project_needs_tenant": "INSERT INTO agent_defaults (project_id) VALUES ({p})",
    "agent_defaults_slug_format": "INSERT INTO agent_defaults (default_agent) VALUES ('Bad Slug')",
    "dataset_groups_name_format": "INSERT INTO dataset_groups (tenant_id, name) VALUES ({t}, ' x')",
    "glossary_terms_name_format": "INSERT INTO glossary_terms (tenant_id, name) VALUES ({t}, '')",
    "dataset_groups_project_fk": "INSERT INTO dataset_groups (tenant_id, project_id, name) VALUES ({g}, {p}, 'x')",
    "glossary_terms_project_fk": "INSERT INTO glossary_terms (tenant_id, project_id, name) VALUES ({g}, {p}, 'x')",
    "dataset_groups_tenant_fk": "INSERT INTO dataset_groups (tenant_id, name) VALUES (999, 'x')",
    "glossary_terms_tenant_fk": "INSERT INTO glossary_terms (tenant_id, name) VALUES (999, 'x')",
    "tenants_slug_key": "INSERT INTO tenants (slug) VALUES ('acme')",
    "tenants_slug_format": "INSERT INTO tenants (slug) VALUES ('Acme Inc')",
    "tenants_name_length": "INSERT INTO tenants (slug, name) VALUES ('x', repeat('n', 161))",
    "projects_tenant_fk": "INSERT INTO projects (tenant_id, slug) VALUES (999, 'x')",
    "projects_tenant_slug_key": "INSERT INTO projects (tenant_id, slug) VALUES ({t}, 'sales')",
    "projects_slug_format": "INSERT INTO projects (tenant_id, slug) VALUES ({t}, 'Sales Team')",
    "projects_name_length": "INSERT INTO projects (tenant_id, slug, name) VALUES ({t}, 'x', repeat('n', 161))",
    "conversations_tenant_fk": "INSERT INTO conversations (tenant_id) VALUES (999)",
    "conversations_project_fk": "INSERT INTO conversations (tenant_id, project_id) VALUES ({g}, {p})",
    "conversations_tenant_slug_key": "INSERT INTO conversations (tenant_id, slug) VALUES ({t}, 'c1')",
    "conversations_slug_format": "INSERT INTO conversations (tenant_id, slug) VALUES ({t}, 'C 1')",
    "conversations_title_length": "INSERT INTO conversations (tenant_id, title) VALUES ({t}, repeat('t', 401))",
    "conversations_agent_slug_format": "INSERT INTO conversations (tenant_id, agent_slug) VALUES ({t}, 'Bad Slug')",
}


def test_every_mapping_has_a_violation_to_prove_it():
    assert set(VIOLATIONS) == set(CONSTRAINT_ERRORS)


@pytest.fixture
def ids(db):
    t = tenant(db, "acme")
    g = tenant(db, "globex")
    p = project(db, t, "sales")
    agent(db, "dup", t)
    db.execute("INSERT INTO conversations (tenant_id, slug) VALUES (%s, 'c1')", (t,))
    return {"t": t, "g": g, "p": p, "gp": project(db, g, "lab"), "own": agent(db, "own", t, p),
            "theirs": agent(db, "theirs", g)}


@pytest.mark.parametrize("constraint", sorted(VIOLATIONS))
def test_violation_becomes_its_domain_error(db, ids, constraint):
    kind, _ = CONSTRAINT_ERRORS[constraint]
    with pytest.raises(kind) as caught:
        with mapped_errors(**CONTEXT):
            db.execute(VIOLATIONS[constraint].format(**ids))
    assert isinstance(caught.value.__cause__, psycopg.Error)
    assert caught.value.__cause__.diag.constraint_name == constraint
    message = str(caught.value)
    assert "?" not in message.replace("'?'", ""), message  # every placeholder was filled
    assert len(message) > 20


def test_an_unmapped_refusal_is_reraised_with_its_constraint_name(db):
    with pytest.raises(InvalidInput, match=r"agents_version_positive"):
        with mapped_errors():
            db.execute("INSERT INTO agents (slug, version) VALUES ('x', 0)")
