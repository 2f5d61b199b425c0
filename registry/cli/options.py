"""Options more than one command group reads: an agent's address, its content, a posture text."""

from __future__ import annotations

import argparse
import json

from pydantic import ValidationError

from registry import limits
from registry.api import AgentRef
from registry.errors import InvalidInput
from registry.models import describe_validation_error
from registry.refs import parse_ref
from registry.text_files import read_text_file
from registry.tool_profiles import ToolProfile


def agent_address(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", help="agent slug (with --tenant/--project for its layer; neither = official) or id")
    p.add_argument("--tenant", help="tenant slug or id (the agent's layer)")
    p.add_argument("--project", help="project slug or id (the agent's layer)")
    p.add_argument("--json", action="store_true", help="print JSON")


def agent_ref(args: argparse.Namespace) -> AgentRef | int:
    agent = parse_ref(args.agent, "agent")  # check_arguments has parsed it already
    if isinstance(agent, int):
        if args.tenant is not None or args.project is not None:
            raise InvalidInput("give an agent id alone, or a slug with --tenant/--project")
        return agent
    return AgentRef(agent, tenant=args.tenant, project=args.project)


def content_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", help=f"display name, one line (at most {limits.AGENT_NAME} characters)")
    p.add_argument("--description", help=f"what the agent does, one line (at most {limits.AGENT_DESCRIPTION})")
    p.add_argument("--when-to-use", help=f"when a person should choose it, one line (at most {limits.AGENT_WHEN_TO_USE})")
    p.add_argument("--requires", help='JSON object of string lists, e.g. \'{"grupos": ["financeiro"]}\'')
    instruction_options(p, "the posture text")
    p.add_argument("--note", help=f"an internal note (at most {limits.AGENT_NOTE})")
    p.add_argument("--tool-profile", help='JSON: {"include": [globs], "exclude": [globs], "require_verified": '
                   'true, "max_tools": n} — narrows the tools exposed with this agent')


def instruction_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--instructions", help=what)
    p.add_argument("--instructions-file", help=f"read {what} from this file (UTF-8; its final newline is not "
                   "part of the text)")


def instructions(args: argparse.Namespace) -> str | None:
    if args.instructions is not None and args.instructions_file is not None:
        raise InvalidInput("give --instructions or --instructions-file, not both")
    if args.instructions_file is not None:
        return read_text_file(args.instructions_file, "--instructions-file")
    return args.instructions


def _json_option(text: str, option: str) -> object:
    """An option's JSON value. Nesting deep enough to exhaust Python's recursion is refused in one line
    (hostile round 14, A18: 30,000 brackets were a RecursionError traceback); no valid value nests like that."""
    try:
        return json.loads(text)
    except RecursionError:
        raise InvalidInput(f"{option} nests too deeply to be read: a tool profile or a requires value is a flat "
                           "object of lists") from None


def requires(args: argparse.Namespace) -> dict | None:
    if args.requires is None:
        return None
    try:
        return _json_option(args.requires, "--requires")
    except json.JSONDecodeError as error:
        raise InvalidInput(f'--requires is not JSON ({error.msg}): e.g. \'{{"grupos": ["financeiro"]}}\'') from error


def tool_profile(args: argparse.Namespace):
    if args.tool_profile is None:
        return None
    try:
        data = _json_option(args.tool_profile, "--tool-profile")
    except json.JSONDecodeError as error:
        raise InvalidInput(f"--tool-profile is not JSON ({error.msg}): e.g. "
                           '\'{"include": ["sql.*"], "exclude": ["sql.write*"], "max_tools": 5}\'') from error
    return validated(ToolProfile, **data) if isinstance(data, dict) else validated(ToolProfile, include=data)


def validated(model, **fields):
    """A model built from the command line: a bad field is InvalidInput (one line), not a traceback."""
    try:
        return model(**fields)
    except ValidationError as error:
        raise InvalidInput(describe_validation_error(error)) from error
