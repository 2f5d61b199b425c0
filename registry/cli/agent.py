"""`registry agent create|update|publish|unpublish|enable|disable|delete|show|history|restore`.

Every write goes through registry.api (the gate, optimistic versions, mapped errors). The ones that
remove an agent from view preview their impact and ask first, on the command's one connection.
"""

from __future__ import annotations

import argparse
import sys

from registry import limits
from registry.models import AgentChanges, AgentContent
from registry.refs import ascii_int
from registry.render import as_json, table

from .confirm import confirm, impact_table
from .options import (agent_address, agent_ref, content_options, instructions, requires, tool_profile,
                      validated)
from .parsing import Handler, action, actions, command, json_option, yes_option
from .session import run, session


def _print_agent(args: argparse.Namespace, agent, verb: str) -> None:
    if args.json:
        print(as_json(agent))
        return
    where = agent.layer if agent.layer == "official" else f"{agent.layer} layer (tenant {agent.tenant_id}" + (
        f", project {agent.project_id})" if agent.project_id else ")")
    print(f"{verb} agent {agent.slug!r} #{agent.id} in the {where}: version {agent.version}, "
          f"{agent.status}, {'enabled' if agent.enabled else 'disabled'}.")


def cmd_create(args: argparse.Namespace) -> None:
    content = validated(AgentContent, slug=args.slug, name=args.name or "", description=args.description or "",
                        when_to_use=args.when_to_use or "", requires=requires(args) or {},
                        instructions=instructions(args) or "", status="published" if args.publish else "draft",
                        note=args.note, tool_profile=tool_profile(args))
    with session(args) as registry:
        shadow = registry.shadowing(args.slug, args.tenant, args.project) if args.publish else None
        agent = registry.create_agent(content, tenant=args.tenant, project=args.project)
    _print_agent(args, agent, "Created")
    _warn_shadowing(args, shadow)


def _warn_shadowing(args: argparse.Namespace, shadow) -> None:
    """A published override hides what its scopes inherited: said, with the impact, never refused
    (on stderr with --json, so the JSON stays parseable)."""
    if shadow is None:
        return
    out = sys.stderr if args.json else sys.stdout
    print(f"Note: {shadow.warning}.", file=out)
    if shadow.impact:
        print(impact_table(shadow.impact), file=out)


def cmd_update(args: argparse.Namespace) -> None:
    changes = validated(AgentChanges, name=args.name, description=args.description, when_to_use=args.when_to_use,
                        requires=requires(args), instructions=instructions(args), note=args.note,
                        tool_profile=tool_profile(args))
    agent = run(args, lambda r: r.update_agent(agent_ref(args), changes, expected_version=args.version))
    _print_agent(args, agent, "Updated")


def _status_command(method: str, verb: str, removes: bool) -> Handler:
    def handle(args: argparse.Namespace) -> None:
        shadow = None
        with session(args) as registry:
            if removes:
                confirm(args, registry.impact_of_removal(agent_ref(args)))
            else:  # publish, enable: an override that starts to show hides what lies beneath
                shadow = registry.shadowing_of_publish(agent_ref(args))
            agent = getattr(registry, method)(agent_ref(args), expected_version=args.version)
        _print_agent(args, agent, verb)
        _warn_shadowing(args, shadow)
    return handle


def cmd_delete(args: argparse.Namespace) -> None:
    with session(args) as registry:
        confirm(args, registry.impact_of_removal(agent_ref(args)))
        agent = registry.delete_agent(agent_ref(args), expected_version=args.version)
    print(as_json(agent) if args.json else
          f"Deleted agent {agent.slug!r} #{agent.id} ({agent.layer} layer). Defaults and pins naming "
          f"{agent.slug!r} now resolve to the layer beneath, or are reported as orphaned.")


def cmd_show(args: argparse.Namespace) -> None:
    agent = run(args, lambda r: r.agent(agent_ref(args)))
    if args.json:
        print(as_json(agent))
        return
    _print_agent(args, agent, "")
    print(agent.instructions)


def cmd_history(args: argparse.Namespace) -> None:
    versions = run(args, lambda r: r.history(agent_ref(args)))
    if args.json:
        print(as_json(versions))
        return
    print(table(["version", "current", "replaced by", "replaced at", "name", "instructions"],
                [(v.version, v.current, v.replaced_by, v.replaced_at.isoformat(timespec="seconds") if v.replaced_at else None,
                  v.name, _preview(v.instructions)) for v in versions]))


def _preview(text: str, width: int = 48) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def cmd_restore(args: argparse.Namespace) -> None:
    agent = run(args, lambda r: r.restore(agent_ref(args), version=args.to, expected_version=args.version))
    _print_agent(args, agent, f"Restored version {args.to} of")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "agent", "create, change, publish, disable, delete agents; history and restore"))

    p = action(sub, "create", cmd_create, "create an agent (a draft unless --publish)")
    p.add_argument("slug", help=f"lowercase kebab-case, at most {limits.SLUG} characters")
    p.add_argument("--tenant", help="tenant slug or id (omit for the official layer)")
    p.add_argument("--project", help="project slug or id (the project layer)")
    p.add_argument("--publish", action="store_true", help="publish it at once")
    json_option(p)
    content_options(p)

    p = action(sub, "update", cmd_update, "change an agent's content (a new version)")
    agent_address(p)
    p.add_argument("--version", type=ascii_int, required=True, help="the version your change is based on")
    content_options(p)

    for name, verb, removes in (("publish", "Published", False), ("unpublish", "Unpublished", True),
                                ("enable", "Enabled", False), ("disable", "Disabled", True)):
        p = action(sub, name, _status_command(name, verb, removes), f"{name} an agent"
                   + (" (shows the impact and asks first)" if removes else ""))
        agent_address(p)
        p.add_argument("--version", type=ascii_int, help="refuse if the agent is no longer at this version")
        if removes:
            yes_option(p)

    p = action(sub, "delete", cmd_delete, "delete an agent (shows the impact and asks first)")
    agent_address(p)
    p.add_argument("--version", type=ascii_int, help="refuse if the agent is no longer at this version")
    yes_option(p)

    agent_address(action(sub, "show", cmd_show, "one stored agent, with its instructions"))
    agent_address(action(sub, "history", cmd_history, "every version of an agent's content"))

    p = action(sub, "restore", cmd_restore, "make an old version current again, as a new version")
    agent_address(p)
    p.add_argument("--to", type=ascii_int, required=True, help="the version to restore")
    p.add_argument("--version", type=ascii_int, required=True, help="the agent's current version")
