"""The CLI's write commands: agents, defaults, opt-outs, conversations, import and export.

Every command goes through registry.api (the gate, optimistic versions, mapped errors); a
refusal prints one or two lines and exits non-zero (registry.cli.main does that).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import psycopg

from registry import db, limits, queries
from registry.agent_io import export_agents, import_agents
from registry.api import AgentRef, Registry
from registry.errors import InvalidInput, NotFound
from pydantic import ValidationError

from registry.refs import InvalidReference, ascii_int, not_utf8, parse_ref
from registry.text_files import TextFileError, read_text_file
from registry.models import AgentChanges, AgentContent, describe_validation_error
from registry.tool_profiles import ToolProfile
from registry.render import as_json, describe_conversation, table

Handler = Callable[[argparse.Namespace], None]
AddCommand = Callable[[str, Handler, str], argparse.ArgumentParser]


def open_registry(args: argparse.Namespace) -> tuple[Registry, psycopg.Connection]:
    """A connection and the Registry over it: acting for --as-tenant when given.

    --as-tenant fails closed: given at all (even '' or blank), it must name an existing tenant,
    checked here before any command runs; it is never read as "no tenant"."""
    actor = args.actor or os.environ.get("REGISTRY_ACTOR") or getpass.getuser()
    if (bad := not_utf8(actor)) is not None:
        raise InvalidReference(f"the actor (--actor, REGISTRY_ACTOR or your user name) is not valid UTF-8 ({bad})")
    conn = db.connect()
    registry = Registry(conn, actor=actor)
    if args.as_tenant is None:
        return registry, conn
    try:
        tenant_id = acting_tenant(conn, args.as_tenant)
    except BaseException:
        conn.close()
        raise
    return registry.for_tenant(tenant_id), conn


def acting_tenant(conn: psycopg.Connection, reference: str | int) -> int:
    """The id of the tenant --as-tenant names, or NotFound. An id is looked up with the setting
    registry.tenant_id already made (so a login that is itself tenant-scoped can see it)."""
    ref = parse_ref(reference, "--as-tenant")
    with conn.transaction():
        if isinstance(ref, int):
            conn.execute(queries.set_tenant, (str(ref),))
            row = conn.execute(queries.tenant_by_id, (ref,)).fetchone()
        else:
            row = conn.execute(queries.tenant_by_slug, (ref,)).fetchone()
    if row is None:
        raise NotFound(f"--as-tenant: no tenant {ref!r}: give an existing tenant's slug or id (a login that is "
                       "registry_app itself sees its tenant by id only); nothing was run")
    return row[0]


def _run(args: argparse.Namespace, action: Callable[[Registry], object]) -> object:
    registry, conn = open_registry(args)
    with conn:
        return action(registry)


def _ref(args: argparse.Namespace) -> AgentRef | int:
    agent = parse_ref(args.agent, "agent")  # registry.cli.check_arguments has parsed it already
    if isinstance(agent, int):
        if args.tenant is not None or args.project is not None:
            raise InvalidInput("give an agent id alone, or a slug with --tenant/--project")
        return agent
    return AgentRef(agent, tenant=args.tenant, project=args.project)


def _instructions(args: argparse.Namespace) -> str | None:
    if args.instructions is not None and args.instructions_file is not None:
        raise InvalidInput("give --instructions or --instructions-file, not both")
    if args.instructions_file is not None:
        return read_text_file(args.instructions_file, "--instructions-file")
    return args.instructions


def _requires(args: argparse.Namespace) -> dict | None:
    if args.requires is None:
        return None
    try:
        return json.loads(args.requires)
    except json.JSONDecodeError as error:
        raise InvalidInput(f'--requires is not JSON ({error.msg}): e.g. \'{{"grupos": ["financeiro"]}}\'') from error


def _tool_profile(args: argparse.Namespace):
    if args.tool_profile is None:
        return None
    try:
        data = json.loads(args.tool_profile)
    except json.JSONDecodeError as error:
        raise InvalidInput(f"--tool-profile is not JSON ({error.msg}): e.g. "
                           '\'{"include": ["sql.*"], "exclude": ["sql.write*"], "max_tools": 5}\'') from error
    return _validated(ToolProfile, **data) if isinstance(data, dict) else _validated(ToolProfile, include=data)


def _validated(model, **fields):
    try:
        return model(**fields)
    except ValidationError as error:
        raise InvalidInput(describe_validation_error(error)) from error


def _print_agent(args: argparse.Namespace, agent, verb: str) -> None:
    if args.json:
        print(as_json(agent))
        return
    where = agent.layer if agent.layer == "official" else f"{agent.layer} layer (tenant {agent.tenant_id}" + (
        f", project {agent.project_id})" if agent.project_id else ")")
    print(f"{verb} agent {agent.slug!r} #{agent.id} in the {where}: version {agent.version}, "
          f"{agent.status}, {'enabled' if agent.enabled else 'disabled'}.")


# -- impact previews and confirmation ------------------------------------------------------------
def impact_table(rows) -> str:
    def scope(r) -> str:
        return f"tenant {r.tenant_id}" + (f" / project {r.project_id}" if r.project_id else " (tenant-wide)")

    def state(agent_id, layer, slug) -> str:
        if agent_id is None:
            return f"{slug!r}: none" if slug else "none"
        return f"#{agent_id} ({layer})"
    return table(["what", "scope", "before", "after", "orphaned", "conversations"],
                 [(r.kind, scope(r), state(r.before_agent_id, r.before_layer, r.before_slug if r.kind == "default" else None),
                   state(r.after_agent_id, r.after_layer, r.after_slug if r.kind == "default" else None),
                   r.orphaned, r.conversations) for r in rows])


def confirm(args: argparse.Namespace, preview: Callable[[Registry], list]) -> None:
    """Show what the change would do, then go on only with --yes or a "y" at a terminal."""
    rows = _run(args, preview)
    out = sys.stderr if args.json else sys.stdout  # keep --json output parseable
    if not rows:
        print("Impact: no scope's agent, default or pin changes.", file=out)
        return
    print("Impact of this change:", file=out)
    print(impact_table(rows), file=out)
    if args.yes:
        return
    if not sys.stdin.isatty():
        raise InvalidInput("not confirmed: re-run with --yes to make this change")
    if input("Make this change? [y/N] ").strip().lower() not in ("y", "yes"):
        raise InvalidInput("not confirmed: nothing was changed")


# -- agent ---------------------------------------------------------------------------------
def cmd_agent_create(args: argparse.Namespace) -> None:
    content = _validated(AgentContent, slug=args.slug, name=args.name or "", description=args.description or "",
                         when_to_use=args.when_to_use or "", requires=_requires(args) or {},
                         instructions=_instructions(args) or "", status="published" if args.publish else "draft",
                         note=args.note, tool_profile=_tool_profile(args))
    agent = _run(args, lambda r: r.create_agent(content, tenant=args.tenant, project=args.project))
    _print_agent(args, agent, "Created")


def cmd_agent_update(args: argparse.Namespace) -> None:
    changes = _validated(AgentChanges, name=args.name, description=args.description, when_to_use=args.when_to_use,
                         requires=_requires(args), instructions=_instructions(args), note=args.note,
                         tool_profile=_tool_profile(args))
    agent = _run(args, lambda r: r.update_agent(_ref(args), changes, expected_version=args.version))
    _print_agent(args, agent, "Updated")


def _status_command(method: str, verb: str, removes: bool) -> Handler:
    def command(args: argparse.Namespace) -> None:
        if removes:
            confirm(args, lambda r: r.impact_of_removal(_ref(args)))
        agent = _run(args, lambda r: getattr(r, method)(_ref(args), expected_version=args.version))
        _print_agent(args, agent, verb)
    return command


def cmd_agent_delete(args: argparse.Namespace) -> None:
    confirm(args, lambda r: r.impact_of_removal(_ref(args)))
    agent = _run(args, lambda r: r.delete_agent(_ref(args), expected_version=args.version))
    print(as_json(agent) if args.json else
          f"Deleted agent {agent.slug!r} #{agent.id} ({agent.layer} layer). Defaults and pins naming "
          f"{agent.slug!r} now resolve to the layer beneath, or are reported as orphaned.")


def cmd_agent_show(args: argparse.Namespace) -> None:
    agent = _run(args, lambda r: r.agent(_ref(args)))
    if args.json:
        print(as_json(agent))
        return
    _print_agent(args, agent, "")
    print(agent.instructions)


def cmd_agent_history(args: argparse.Namespace) -> None:
    versions = _run(args, lambda r: r.history(_ref(args)))
    if args.json:
        print(as_json(versions))
        return
    print(table(["version", "current", "replaced by", "replaced at", "name", "instructions"],
                [(v.version, v.current, v.replaced_by, v.replaced_at.isoformat(timespec="seconds") if v.replaced_at else None,
                  v.name, _preview(v.instructions)) for v in versions]))


def _preview(text: str, width: int = 48) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def cmd_agent_restore(args: argparse.Namespace) -> None:
    agent = _run(args, lambda r: r.restore(_ref(args), version=args.to, expected_version=args.version))
    _print_agent(args, agent, f"Restored version {args.to} of")


# -- defaults, opt-outs, conversations -------------------------------------------------------
def cmd_default_set(args: argparse.Namespace) -> None:
    value = None if args.action == "clear" else args.value
    if args.action == "set" and value is None:
        raise InvalidInput("give the default agent's slug, or '' for explicitly none (clear goes back to inheriting)")
    confirm(args, lambda r: r.impact_of_default(value, tenant=args.tenant, project=args.project))
    layer = _run(args, lambda r: r.set_default(value, tenant=args.tenant, project=args.project))
    said = {None: "inherits from the layer above", "": "explicitly has no default"}.get(value, f"defaults to {value!r}")
    print(as_json(layer) if args.json else f"The {layer.layer} layer now {said}.")


def cmd_optout(args: argparse.Namespace) -> None:
    if args.action == "add":
        confirm(args, lambda r: r.impact_of_optout(args.tenant, args.project, args.agent, layer=args.layer))
        optout = _run(args, lambda r: r.opt_out(args.tenant, args.project, args.agent, layer=args.layer))
        print(as_json(optout) if args.json else
              f"Project {args.project!r} now hides {optout.layer} agent {optout.slug!r} (#{optout.agent_id}).")
    else:
        removed = _run(args, lambda r: r.opt_in(args.tenant, args.project, args.agent, layer=args.layer))
        print(json.dumps({"removed": removed}) if args.json else
              f"Removed {removed} opt-out(s) of {args.agent!r} in project {args.project!r}.")


def cmd_conversation_start(args: argparse.Namespace) -> None:
    resolved = _run(args, lambda r: r.start_conversation(args.tenant, args.project, agent_slug=args.agent,
                                                          slug=args.slug, title=args.title or ""))
    print(as_json(resolved) if args.json else f"Started conversation {resolved.conversation_id} ({resolved.mode}).")


def cmd_conversation_pin(args: argparse.Namespace) -> None:
    def act(r: Registry):
        return r.unpin(args.id) if args.action == "unpin" else r.pin(args.id, args.agent)
    resolved = _run(args, act)
    print(as_json(resolved) if args.json else describe_conversation(resolved))


def cmd_impact(args: argparse.Namespace) -> None:
    if args.change in ("delete", "disable", "unpublish"):
        if args.agent is None:
            raise InvalidInput(f"give the agent: registry impact {args.change} SLUG --tenant T [--project P]")
        rows = _run(args, lambda r: r.impact_of_removal(_ref(args)))
    elif args.change == "optout":
        if args.agent is None or args.tenant is None or args.project is None:
            raise InvalidInput("give the agent, --tenant and --project: registry impact optout SLUG --tenant T --project P")
        rows = _run(args, lambda r: r.impact_of_optout(args.tenant, args.project, args.agent, layer=args.layer))
    else:
        if args.clear == (args.agent is not None):
            raise InvalidInput("give the new default slug ('' for none) or --clear")
        value = None if args.clear else args.agent
        rows = _run(args, lambda r: r.impact_of_default(value, tenant=args.tenant, project=args.project))
    if args.json:
        print(as_json(rows))
    elif rows:
        print(impact_table(rows))
    else:
        print("No scope's agent, default or pin would change.")


def cmd_watch(args: argparse.Namespace) -> None:
    from registry.watch import excerpt, watch_changes

    def warn(payload: str, reason: str) -> None:
        # stderr only: --json output stays one valid object per line on stdout.
        print(f"registry watch: ignored a notification that is not the registry's ({reason}): {excerpt(payload)}",
              file=sys.stderr, flush=True)

    print("Watching registry_changes (Ctrl-C to stop)…", file=sys.stderr, flush=True)
    for change in watch_changes(db.database_url(), on_ignored=warn):
        if args.json:
            print(change.model_dump_json(), flush=True)
        elif change.reconnected:
            print("(reconnected: changes made meanwhile were not seen)", flush=True)
        else:
            where = f"tenant {change.tenant_id}" if change.tenant_id else "official"
            if change.project_id:
                where += f" / project {change.project_id}"
            version = f" v{change.version}" if change.version else ""
            print(f"{change.operation:<6} {change.table:<14} {where:<28} {change.slug or ''}{version}", flush=True)


def cmd_project_instructions(args: argparse.Namespace) -> None:
    if args.action == "show":
        print(_run(args, lambda r: r.project_instructions(args.tenant, args.project)))
        return
    text = "" if args.action == "clear" else _instructions(args)
    if text is None:
        raise InvalidInput("give --instructions-file PATH or --instructions TEXT")
    stored = _run(args, lambda r: r.set_project_instructions(args.tenant, args.project, text))
    print(f"Project instruction file of {args.tenant}/{args.project}: "
          + (f"{len(stored)} characters stored." if stored else "removed."))


# -- import and export ---------------------------------------------------------------------
def cmd_import(args: argparse.Namespace) -> None:
    if args.path.strip() == "":
        raise TextFileError("import: the path is empty: give an agent file or a directory of them")
    report = _run(args, lambda r: import_agents(r, Path(args.path)))
    if args.json:
        print(json.dumps(report.__dict__, indent=2))
        return
    print(f"Imported {args.path}: {report.summary()}.")


def cmd_export(args: argparse.Namespace) -> None:
    written = _run(args, lambda r: export_agents(r, Path(args.directory), tenant=args.tenant))
    print(f"Exported {len(written)} agent file(s) to {args.directory}.")


# -- parser ----------------------------------------------------------------------------------
def _agent_address(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", help="agent slug (with --tenant/--project for its layer; neither = official) or id")
    p.add_argument("--tenant", help="tenant slug or id (the agent's layer)")
    p.add_argument("--project", help="project slug or id (the agent's layer)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _content_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", help=f"display name, one line (at most {limits.AGENT_NAME} characters)")
    p.add_argument("--description", help=f"what the agent does, one line (at most {limits.AGENT_DESCRIPTION})")
    p.add_argument("--when-to-use", help=f"when a person should choose it, one line (at most {limits.AGENT_WHEN_TO_USE})")
    p.add_argument("--requires", help='JSON object of string lists, e.g. \'{"grupos": ["financeiro"]}\'')
    p.add_argument("--instructions", help="the posture text")
    p.add_argument("--instructions-file", help="read the posture text from this file (UTF-8; its final newline "
                   "is not part of the text)")
    p.add_argument("--note", help=f"an internal note (at most {limits.AGENT_NOTE})")
    p.add_argument("--tool-profile", help='JSON: {"include": [globs], "exclude": [globs], "require_verified": '
                   'true, "max_tools": n} — narrows the tools exposed with this agent')


def add_write_commands(sub: argparse._SubParsersAction, add: AddCommand) -> None:
    agent = add("agent", lambda a: None, "create, change, publish, disable, delete agents; history and restore")
    actions = agent.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        p = actions.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    p = action("create", cmd_agent_create, "create an agent (a draft unless --publish)")
    p.add_argument("slug", help=f"lowercase kebab-case, at most {limits.SLUG} characters")
    p.add_argument("--tenant", help="tenant slug or id (omit for the official layer)")
    p.add_argument("--project", help="project slug or id (the project layer)")
    p.add_argument("--publish", action="store_true", help="publish it at once")
    p.add_argument("--json", action="store_true", help="print JSON")
    _content_options(p)

    p = action("update", cmd_agent_update, "change an agent's content (a new version)")
    _agent_address(p)
    p.add_argument("--version", type=ascii_int, required=True, help="the version your change is based on")
    _content_options(p)

    for name, verb, removes in (("publish", "Published", False), ("unpublish", "Unpublished", True),
                                ("enable", "Enabled", False), ("disable", "Disabled", True)):
        p = action(name, _status_command(name, verb, removes), f"{name} an agent"
                   + (" (shows the impact and asks first)" if removes else ""))
        _agent_address(p)
        p.add_argument("--version", type=ascii_int, help="refuse if the agent is no longer at this version")
        if removes:
            p.add_argument("--yes", action="store_true", help="make the change without asking")

    p = action("delete", cmd_agent_delete, "delete an agent (shows the impact and asks first)")
    _agent_address(p)
    p.add_argument("--version", type=ascii_int, help="refuse if the agent is no longer at this version")
    p.add_argument("--yes", action="store_true", help="make the change without asking")

    p = action("show", cmd_agent_show, "one stored agent, with its instructions")
    _agent_address(p)

    p = action("history", cmd_agent_history, "every version of an agent's content")
    _agent_address(p)

    p = action("restore", cmd_agent_restore, "make an old version current again, as a new version")
    _agent_address(p)
    p.add_argument("--to", type=ascii_int, required=True, help="the version to restore")
    p.add_argument("--version", type=ascii_int, required=True, help="the agent's current version")

    p = add("optout", cmd_optout, "hide an inherited agent in a project, or show it again")
    p.add_argument("action", choices=["add", "remove"])
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", required=True, help="project slug or id")
    p.add_argument("--agent", required=True, help="the inherited agent's slug")
    p.add_argument("--layer", choices=["official", "tenant"],
                   help="which inherited row (default: the tenant's when it has one, else the official)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--yes", action="store_true", help="opt out without asking (add)")

    p = add("project-instructions", cmd_project_instructions,
            "a project's instruction file, stored in the database (it outranks every AGENTS.md)")
    p.add_argument("action", choices=["show", "set", "clear"])
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", required=True, help="project slug or id")
    p.add_argument("--instructions", help="with set: the text")
    p.add_argument("--instructions-file", help="with set: read the text from this file (UTF-8; its final "
                   "newline is not part of the text)")

    p = add("impact", cmd_impact, "what a change would do, without making it")
    p.add_argument("change", choices=["delete", "disable", "unpublish", "optout", "default"])
    p.add_argument("agent", nargs="?", help="delete/disable/unpublish: the agent's slug or id; "
                   "optout: the inherited agent's slug; default: the new default slug ('' = none)")
    p.add_argument("--tenant", help="tenant slug or id")
    p.add_argument("--project", help="project slug or id")
    p.add_argument("--layer", choices=["official", "tenant"], help="optout: which inherited row")
    p.add_argument("--clear", action="store_true", help="default: back to inheriting (NULL)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("watch", cmd_watch, "print changes to agents, opt-outs and defaults as they are committed")
    p.add_argument("--json", action="store_true", help="one JSON object per line")

    p = add("import", cmd_import, "import agent files (a file or a directory): all of them or none")
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("export", cmd_export, "write agents as files: official/, <tenant>/, <tenant>/<project>/")
    p.add_argument("directory")
    p.add_argument("--tenant", help="only the official agents and this tenant's")
