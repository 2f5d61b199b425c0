"""The `registry` command line: one module per command group, each with real argparse subcommands.

Without REGISTRY_DATABASE_URL every command uses the embedded PostgreSQL (registry.embedded).
Errors a person can act on print one line on stderr and exit non-zero, never a traceback:
2 configuration or bad input, 3 database unreachable, 4 not found, 1 anything else.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import psycopg
from pydantic import ValidationError

from registry.errors import DatabaseUnavailable, RegistryError, first_line
from registry.models import describe_validation_error
from registry.render import TerminalSafe

from . import (agent, agents, bench, conventions, conversation, db, default, demo, explain, gate, harden, horizon,
               impact, import_export, migrate, optout, project_instructions, prompt, seed, vocabulary, watch)
from .arguments import check_arguments
from .parsing import Parser
from .prompt import PRODUCT_RULES_FILE

__all__ = ["PRODUCT_RULES_FILE", "build_parser", "check_arguments", "main"]

# In the order `registry --help` lists them: first run, reading, writing, operating.
GROUPS = (demo, migrate, seed, agents, default, conversation, explain, prompt, agent, optout, vocabulary,
          project_instructions, conventions, impact, watch, import_export, bench, gate, harden, horizon, db)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="registry",
        description="A layered registry of AI agents (official, tenant, project). "
        "Uses REGISTRY_DATABASE_URL, or an embedded PostgreSQL when it is unset.",
    )
    parser.add_argument("--actor", help="who is making the change, kept in the history "
                        "(default: $REGISTRY_ACTOR, else your user name)")
    parser.add_argument("--as-tenant", metavar="TENANT", help="act as this tenant (slug or id): row-level security "
                        "as registry_app, so only the official layer and this tenant's rows exist; an empty, "
                        "malformed or unknown tenant is refused before anything runs")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Whatever a row holds (a name written in SQL with "\x1b]0;…"), it reaches a terminal escaped.
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafe(stdout), TerminalSafe(stderr)
    try:
        return _main(argv)
    finally:
        if isinstance(sys.stdout, TerminalSafe):
            sys.stdout = stdout
        sys.stderr = stderr


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        check_arguments(args)
        args.handler(args)
    except RegistryError as error:
        print(f"registry: {error}", file=sys.stderr)
        return error.exit_code
    except ValidationError as error:
        # Input is checked before it gets here; this is a row whose shape a direct SQL write broke.
        print(f"registry: data that does not have the registry's shape ({describe_validation_error(error)}); "
              "fix the row in SQL", file=sys.stderr)
        return 1
    except psycopg.OperationalError as error:
        print(f"registry: database unavailable: {first_line(error)}", file=sys.stderr)
        return DatabaseUnavailable.exit_code
    except psycopg.Error as error:
        print(f"registry: database error: {first_line(error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader (`| head`) went away: not an error of ours. Keep Python's exit flush quiet.
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        return 130
    return 0
