"""`registry conversation show|start|pin|unpin`: which agent a conversation runs with, and changing it.

`registry conversation ID` is no longer read as `show ID`: argparse cannot take it without
rewriting argv, so the word after `conversation` is always an action, and an id there gets a hint.
"""

from __future__ import annotations

import argparse
import sys

from registry.refs import ascii_int, is_ascii_id
from registry.explain import missing_words
from registry.render import as_json, describe_conversation

from .parsing import action, actions, command, json_option
from .session import run


def cmd_show(args: argparse.Namespace) -> None:
    _print(args, run(args, lambda r: r.conversation(args.id)))


def cmd_start(args: argparse.Namespace) -> None:
    resolved = run(args, lambda r: r.start_conversation(args.tenant, args.project, agent_slug=args.agent,
                                                         slug=args.slug, title=args.title or ""))
    print(as_json(resolved) if args.json else f"Started conversation {resolved.conversation_id} ({resolved.mode}).")
    _warn_if_orphaned(resolved)


def cmd_pin(args: argparse.Namespace) -> None:
    _print(args, run(args, lambda r: r.pin(args.id, args.agent)))


def cmd_unpin(args: argparse.Namespace) -> None:
    _print(args, run(args, lambda r: r.unpin(args.id)))


def _print(args: argparse.Namespace, resolved) -> None:
    print(as_json(resolved) if args.json else describe_conversation(resolved))
    _warn_if_orphaned(resolved)


def _warn_if_orphaned(resolved) -> None:
    """An orphan is stored, never refused (docs/design.md): said on stderr, so --json stays clean."""
    if resolved.orphaned:
        print(f"registry: warning: {resolved.slug!r} resolves to no agent in this scope: conversation "
              f"{resolved.conversation_id} runs without one until an agent of that slug exists", file=sys.stderr)
    elif resolved.unavailable:
        print(f"registry: warning: {resolved.slug!r} needs {missing_words(resolved.missing)}, which this "
              f"scope lacks: conversation {resolved.conversation_id} runs without an agent until the scope has "
              "them (registry groups|terms add)", file=sys.stderr)


def _hint(word: str) -> str:
    if is_ascii_id(word):
        return f"to see conversation {word}, say: registry conversation show {word}"
    return (f"no action '{word}': registry conversation show ID, start --tenant T [--project P], "
            "pin ID SLUG or unpin ID")


def _conversation_id(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", type=ascii_int, help="conversation id")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "conversation", "show a conversation's agent; start, pin or unpin "
                          "conversations"), hint=_hint)

    p = action(sub, "show", cmd_show, "the agent a conversation runs with")
    _conversation_id(p)
    json_option(p)

    p = action(sub, "start", cmd_start, "start a conversation in a project (or tenant-wide)")
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", help="project slug or id")
    p.add_argument("--agent", help="pin this slug ('' = no agent) instead of following the default")
    p.add_argument("--slug", help="a human key for the conversation")
    p.add_argument("--title", help="a title")
    json_option(p)

    p = action(sub, "pin", cmd_pin, "pin an agent to a conversation ('' pins explicitly no agent)")
    _conversation_id(p)
    p.add_argument("agent", metavar="SLUG", help="the slug to pin, or '' for explicitly no agent")
    json_option(p)

    p = action(sub, "unpin", cmd_unpin, "go back to following the scope's default")
    _conversation_id(p)
    json_option(p)
