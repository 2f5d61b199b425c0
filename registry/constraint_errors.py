"""Database refusals, mapped in one place by constraint name to errors a person can act on.

Each write declares what it was doing (`context`: which slug, which layer, …); a violation of
a named constraint becomes the domain error of this table, its message filled from that
context. A violation without a mapping is re-raised as InvalidInput carrying the
constraint's name and the database's own words — never swallowed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import psycopg

from registry import limits as L
from registry.errors import InvalidInput, NotAllowed, NotFound, NotInherited, RegistryError, SlugTaken, first_line

# constraint name -> (error class, message). Messages are formatted with the write's context;
# a key the context lacks shows as "?".
CONSTRAINT_ERRORS: dict[str, tuple[type[RegistryError], str]] = {
    "agents_layer_slug_key": (SlugTaken, "slug {slug!r} is already taken in {where}: choose another slug, "
                                         "or update that agent instead"),
    "agents_tenant_fk": (NotFound, "tenant {tenant!r} does not exist: create it first or check its id"),
    "agents_project_fk": (NotFound, "project {project!r} is not a project of tenant {tenant!r}: "
                                    "name one of that tenant's projects"),
    "agents_project_needs_tenant": (InvalidInput, "a project-layer agent needs its tenant: give the tenant too"),
    "agents_slug_format": (InvalidInput, f"slug {{slug!r}} is not lowercase kebab-case of at most {L.SLUG} characters "
                                         "(e.g. analista-financeiro)"),
    "agents_name_length": (InvalidInput, f"name is longer than {L.AGENT_NAME} characters: shorten it"),
    "agents_description_length": (InvalidInput, f"description is longer than {L.AGENT_DESCRIPTION} characters: shorten it"),
    "agents_when_to_use_length": (InvalidInput, f"when_to_use is longer than {L.AGENT_WHEN_TO_USE} characters: shorten it"),
    "agents_instructions_length": (InvalidInput, f"instructions are longer than {L.INSTRUCTIONS:,} characters after NFC: "
                                                 "shorten them"),
    "agents_requires_shape": (InvalidInput, "requires must be an object whose values are lists of strings, "
                                            'e.g. {{"grupos": ["financeiro"], "termos": []}}'),
    "agents_requires_size": (InvalidInput, f"requires is too large: at most {L.REQUIRES_KEYS_MAX} keys of at most "
                                           f"{L.REQUIRES_KEY} characters, each a list of at most {L.REQUIRES_ITEMS} "
                                           f"items of at most {L.REQUIRES_ITEM} characters"),
    "agents_tool_profile_size": (InvalidInput, f"tool_profile is larger than {L.TOOL_PROFILE_JSON:,} bytes of JSON"),
    "agent_versions_replaced_by_length": (InvalidInput, f"the actor recorded in the history is longer than "
                                                        f"{L.ACTOR} characters: shorten it"),
    "agents_status_known": (InvalidInput, "status must be 'draft' or 'published'"),
    "agents_note_length": (InvalidInput, f"note is longer than {L.AGENT_NOTE} characters: shorten it"),
    "agents_created_by_length": (InvalidInput, f"created_by is longer than {L.ACTOR} characters: shorten it"),
    "agents_tool_profile_shape": (InvalidInput, "tool_profile must be a JSON object (include, exclude, "
                                                f"require_verified, max_tools from 0 to {L.MAX_TOOLS:,}) or null"),
    "projects_instruction_file_length": (InvalidInput, f"the project's instruction file is longer than {L.INSTRUCTION_FILE:,} "
                                                       "characters after NFC: shorten it"),
    "agent_optouts_inherited_only": (NotInherited, "{project!r} does not inherit agent {slug!r} of {where}: a "
                                                   "project can opt out only of official agents and of its own "
                                                   "tenant's; to hide its own agent, disable or delete it"),
    "agent_optouts_project_fk": (NotFound, "project {project!r} does not exist"),
    "agent_optouts_agent_fk": (NotFound, "agent {slug!r} does not exist (or was moved out of its layer)"),
    "agent_defaults_tenant_fk": (NotFound, "tenant {tenant!r} does not exist"),
    "agent_defaults_project_fk": (NotFound, "project {project!r} is not a project of tenant {tenant!r}"),
    "agent_defaults_project_needs_tenant": (InvalidInput, "a project's default needs its tenant: give the tenant too"),
    "agent_defaults_slug_format": (InvalidInput, "default agent {slug!r} must be a slug (lowercase kebab-case, "
                                                 f"at most {L.SLUG}) or '' for none"),
    "tenants_slug_key": (SlugTaken, "tenant slug {slug!r} is already taken: choose another"),
    "tenants_slug_format": (InvalidInput, f"tenant slug {{slug!r}} is not lowercase kebab-case of at most {L.SLUG} "
                                          "characters"),
    "tenants_name_length": (InvalidInput, f"tenant name is longer than {L.TENANT_NAME} characters"),
    "projects_tenant_fk": (NotFound, "tenant {tenant!r} does not exist"),
    "projects_tenant_slug_key": (SlugTaken, "tenant {tenant!r} already has a project {slug!r}: choose another slug"),
    "projects_slug_format": (InvalidInput, f"project slug {{slug!r}} is not lowercase kebab-case of at most {L.SLUG} "
                                            "characters"),
    "projects_name_length": (InvalidInput, f"project name is longer than {L.PROJECT_NAME} characters"),
    "conversations_tenant_fk": (NotFound, "tenant {tenant!r} does not exist"),
    "conversations_project_fk": (NotFound, "project {project!r} is not a project of tenant {tenant!r}"),
    "conversations_tenant_slug_key": (SlugTaken, "tenant {tenant!r} already has a conversation {slug!r}"),
    "conversations_slug_format": (InvalidInput, "conversation slug {slug!r} is not lowercase kebab-case"),
    "conversations_title_length": (InvalidInput, f"conversation title is longer than {L.CONVERSATION_TITLE} characters"),
    "dataset_groups_name_format": (InvalidInput, f"dataset group {{name!r}} must be 1 to {L.REQUIRES_ITEM} characters, "
                                                 "without leading or trailing blanks or control characters"),
    "glossary_terms_name_format": (InvalidInput, f"glossary term {{name!r}} must be 1 to {L.REQUIRES_ITEM} characters, "
                                                 "without leading or trailing blanks or control characters"),
    "dataset_groups_project_fk": (NotFound, "project {project!r} is not a project of tenant {tenant!r}"),
    "glossary_terms_project_fk": (NotFound, "project {project!r} is not a project of tenant {tenant!r}"),
    "dataset_groups_tenant_fk": (NotFound, "tenant {tenant!r} does not exist"),
    "glossary_terms_tenant_fk": (NotFound, "tenant {tenant!r} does not exist"),
    "conversations_agent_slug_format": (InvalidInput, "agent slug {agent_slug!r} must be a slug (lowercase "
                                                      f"kebab-case, at most {L.SLUG}) or '' for no agent"),
}


class _Context(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def translate(error: psycopg.Error, context: Mapping[str, object] | None = None) -> RegistryError:
    """The domain error for a database error: by constraint name, else one carrying its words."""
    constraint = error.diag.constraint_name if error.diag else None
    if constraint in CONSTRAINT_ERRORS:
        kind, template = CONSTRAINT_ERRORS[constraint]
        return kind(template.format_map(_Context(context or {})))
    name = f" ({constraint})" if constraint else ""
    return InvalidInput(f"the database refused the change{name}: {first_line(error)}")


@contextlib.contextmanager
def mapped_errors(**context: object) -> Iterator[None]:
    """Run database work; a refused write leaves as a domain error (raised from the original)."""
    try:
        yield
    except psycopg.errors.InsufficientPrivilege as error:
        # Row-level security: say no without naming anything the tenant may not see.
        table = f" ({error.diag.table_name})" if error.diag.table_name else ""
        raise NotAllowed(f"not allowed in this tenant{table}: the row would belong to another tenant or to the "
                         "official layer, which only the product's staff may write") from error
    except (psycopg.errors.IntegrityError, psycopg.errors.RaiseException, psycopg.errors.DataError) as error:
        raise translate(error, context) from error
