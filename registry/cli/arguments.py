"""Every value from argv checked before any command runs (fail closed, registry.refs)."""

from __future__ import annotations

import argparse

from registry.refs import InvalidReference, not_utf8, parse_ref, parse_slug

# Positionals named as the user sees them; every other destination is an option, --like-this.
_POSITIONALS = ("agent", "slug", "value", "path", "directory", "file", "names")


def check_arguments(args: argparse.Namespace) -> None:
    """Every value from argv is text (bytes that are not UTF-8 arrive as lone surrogates), and
    every tenant, project and agent reference is an id or a valid slug (registry.refs) —
    converted in place, so nothing downstream guesses again."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and (bad := not_utf8(item)) is not None:
                option = name if name in _POSITIONALS else "--" + name.replace("_", "-")
                raise InvalidReference(f"{option} is not valid UTF-8 ({bad})")
    if args.as_tenant is not None:
        args.as_tenant = parse_ref(args.as_tenant, "--as-tenant")
    for name in ("tenant", "project"):
        if getattr(args, name, None) is not None:
            setattr(args, name, parse_ref(getattr(args, name), f"--{name}"))
    _check_agent(args)


def _check_agent(args: argparse.Namespace) -> None:
    """The agent a command names: an id or a slug where a stored agent is addressed, a slug (or
    '' for "explicitly none") where a default, a pin or an opt-out names one."""
    agent = getattr(args, "agent", None)
    command, action = args.command, getattr(args, "action", None)
    if command == "agent" and agent is not None:
        args.agent = parse_ref(agent, "agent")
    elif command == "optout":
        args.agent = parse_slug(agent, "--agent")
    elif command == "impact" and agent is not None:
        args.agent = (parse_slug(agent, "agent", allow_empty=action == "default")
                      if action in ("optout", "default") else parse_ref(agent, "agent"))
    elif command == "conversation" and agent is not None:
        # start takes --agent; pin takes it as its second word.
        args.agent = parse_slug(agent, "--agent" if action == "start" else "agent", allow_empty=True)
    elif command == "default" and action == "set":
        args.value = parse_slug(args.value, "the default agent", allow_empty=True)
