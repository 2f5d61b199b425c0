"""Each size is defined once (registry/limits.py): the database's CHECK constraints and the
pydantic models must carry the same numbers, and every length check in the database must be
one this test knows."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from registry import limits
from registry.models import AgentChanges, AgentContent

# constraint -> the numbers its definition must hold, as (regex on pg_get_constraintdef, limit).
LENGTHS = {
    "tenants_name_length": limits.TENANT_NAME,
    "projects_name_length": limits.PROJECT_NAME,
    "agents_name_length": limits.AGENT_NAME,
    "agents_description_length": limits.AGENT_DESCRIPTION,
    "agents_when_to_use_length": limits.AGENT_WHEN_TO_USE,
    "agents_note_length": limits.AGENT_NOTE,
    "agents_created_by_length": limits.ACTOR,
    "agent_versions_replaced_by_length": limits.ACTOR,
    "conversations_title_length": limits.CONVERSATION_TITLE,
    "tenants_slug_format": limits.SLUG,
    "projects_slug_format": limits.SLUG,
    "agents_slug_format": limits.SLUG,
    "conversations_slug_format": limits.SLUG,
    "conversations_agent_slug_format": limits.SLUG,
    "agent_defaults_slug_format": limits.SLUG,
    "conventions_directory_format": limits.CONVENTION_DIRECTORY,
    "conventions_language_format": limits.CONVENTION_LANGUAGE,
    "conventions_created_by_length": limits.ACTOR,
    "convention_versions_replaced_by_length": limits.ACTOR,
    # A dataset group or glossary term is what a requires entry names: the same cap.
    "dataset_groups_name_format": limits.REQUIRES_ITEM,
    "glossary_terms_name_format": limits.REQUIRES_ITEM,
    "vocabulary_changes_name_length": limits.REQUIRES_ITEM,
    "vocabulary_changes_changed_by_length": limits.ACTOR,
}
NFC_CAPS = {"agents_instructions_length": limits.INSTRUCTIONS,
            "projects_instruction_file_length": limits.INSTRUCTION_FILE,
            "conventions_body_length": limits.CONVENTION}


def _definitions(db) -> dict[str, str]:
    return dict(db.execute("""SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
                               WHERE contype = 'c' AND connamespace = 'public'::regnamespace""").fetchall())


def test_every_length_check_in_the_database_is_known(db):
    checks = {name for name, definition in _definitions(db).items() if "char_length(" in definition}
    assert checks == set(LENGTHS) | set(NFC_CAPS)


@pytest.mark.parametrize("constraint", sorted(LENGTHS))
def test_length_constraint_matches_the_limit(db, constraint):
    numbers = re.findall(r"char_length\(\w+\) <= (\d+)", _definitions(db)[constraint])
    assert numbers == [str(LENGTHS[constraint])]


@pytest.mark.parametrize("constraint", sorted(NFC_CAPS))
def test_nfc_cap_matches_the_limit(db, constraint):
    definition = _definitions(db)[constraint]
    assert "normalize(" in definition.lower()
    cap = NFC_CAPS[constraint]
    # The cheap branch skips normalize() only where NFC (at most 3x) cannot reach the cap.
    assert re.findall(r"<= (\d+)", definition) == [str(cap // 3), str(cap)]


def test_requires_and_tool_profile_caps_match(db):
    requires = _definitions(db)["agents_requires_size"]
    assert f"<= {limits.REQUIRES_KEYS_MAX}" in requires
    assert f"^.{{{limits.REQUIRES_KEY + 1}}}" in requires
    assert f"@.size() > {limits.REQUIRES_ITEMS}" in requires
    assert f"^.{{{limits.REQUIRES_ITEM + 1}}}" in requires
    assert f"<= {limits.TOOL_PROFILE_JSON}" in _definitions(db)["agents_tool_profile_size"]
    assert f"@ > {limits.MAX_TOOLS}" in _definitions(db)["agents_tool_profile_shape"]  # revision 0016


@pytest.mark.parametrize("field, cap", [("name", limits.AGENT_NAME), ("description", limits.AGENT_DESCRIPTION),
                                        ("when_to_use", limits.AGENT_WHEN_TO_USE), ("note", limits.AGENT_NOTE)])
def test_models_refuse_one_past_the_limit(field, cap):
    AgentContent(slug="x", **{field: "a" * cap})
    AgentChanges(**{field: "a" * cap})
    with pytest.raises(ValidationError):
        AgentContent(slug="x", **{field: "a" * (cap + 1)})
    with pytest.raises(ValidationError):
        AgentChanges(**{field: "a" * (cap + 1)})


@pytest.mark.parametrize("requires", [
    {f"k{i}": [] for i in range(limits.REQUIRES_KEYS_MAX + 1)},
    {"k" * (limits.REQUIRES_KEY + 1): []},
    {"grupos": ["g"] * (limits.REQUIRES_ITEMS + 1)},
    {"grupos": ["g" * (limits.REQUIRES_ITEM + 1)]},
])
def test_requires_past_a_limit_is_refused_by_the_model_and_the_database(db, requires):
    from psycopg.types.json import Jsonb

    with pytest.raises(ValidationError):
        AgentContent(slug="x", requires=requires)
    import psycopg
    with pytest.raises(psycopg.errors.CheckViolation, match="agents_requires_size"):
        db.execute("INSERT INTO agents (slug, requires) VALUES ('x', %s)", (Jsonb(requires),))


def test_requires_at_the_limits_is_accepted_by_both(db):
    from psycopg.types.json import Jsonb

    requires = {f"{'k' * (limits.REQUIRES_KEY - 1)}{i}": ["g" * limits.REQUIRES_ITEM] * limits.REQUIRES_ITEMS
                for i in range(limits.REQUIRES_KEYS_MAX)}
    AgentContent(slug="x", requires=requires)
    db.execute("INSERT INTO agents (slug, requires) VALUES ('x', %s)", (Jsonb(requires),))
