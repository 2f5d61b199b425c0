"""Every size the registry enforces, defined once.

The database carries the same numbers as CHECK constraints (sql/tables.sql); the pydantic
models, the CLI's help and the error messages read them from here, and
tests/test_limits.py compares this module with the constraints of a migrated database, so
the two sides cannot drift apart.

Lengths count characters (not bytes); texts that reach a prompt count them after NFC.
"""

from __future__ import annotations

SLUG = 80
TENANT_NAME = 160
PROJECT_NAME = 160
CONVERSATION_TITLE = 400

AGENT_NAME = 160
AGENT_DESCRIPTION = 400
AGENT_WHEN_TO_USE = 400
INSTRUCTIONS = 8000
AGENT_NOTE = 255
ACTOR = 120

# `requires`: {"grupos": [...], "termos": [...]} — a few dataset groups and glossary terms.
REQUIRES_KEYS_MAX = 8
REQUIRES_KEY = 40
REQUIRES_ITEMS = 64
REQUIRES_ITEM = 120

INSTRUCTION_FILE = 8000
# A tool profile is at most 2 × 64 globs of 128 characters; its JSON text stays below this.
TOOL_PROFILE_JSON = 20000
# A tool profile's `max_tools` (revision 0016): more than any catalogue holds, and a number every reader parses.
MAX_TOOLS = 10000

# Conventions (revision 0009): a convention is a rule or two, not a document; its directory is
# a path inside the project, its language a short name.
CONVENTION = 2000
CONVENTION_DIRECTORY = 400
CONVENTION_LANGUAGE = 40
