"""The `registry` command line.

Without REGISTRY_DATABASE_URL every command uses the embedded PostgreSQL (registry.embedded).
Errors a person can act on print one line on stderr and exit non-zero, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import psycopg
from pydantic import ValidationError

from registry import db, migrate, queries, repository
from registry.embedded import EmbeddedServer, default_data_dir
from registry.errors import DatabaseUnavailable, InvalidInput, RegistryError, first_line
from registry.api import Registry
from registry.cli_bench import add_bench_commands
from registry.cli_gate import add_gate_commands
from registry.cli_write import (
    add_write_commands,
    cmd_conversation_pin,
    cmd_conversation_start,
    cmd_default_set,
    open_registry,
)
from registry.models import CatalogEntry, describe_validation_error
from registry.paths import SEEDS_DIR
from registry.refs import InvalidReference, ascii_int, is_ascii_id, not_utf8, parse_ref, parse_slug
from registry.render import TerminalSafe, as_json, describe_conversation, describe_default, table
from registry.seeding import load_seeds
from registry.text_files import TextFileError, TextFileMissing, read_text_file

DEMO_TENANT = "acme"
DEMO_PROJECT = "financeiro"
PRODUCT_RULES_FILE = SEEDS_DIR / "product_rules.md"


def _catalog_table(agents: Sequence[CatalogEntry]) -> str:
    return table(["slug", "layer", "version", "tokens", "uses", "name"],
                 [(a.slug, a.layer, a.version, a.instruction_tokens, a.uses, a.name) for a in agents])


def cmd_agents(args: argparse.Namespace) -> None:
    registry, conn = open_registry(args)
    with conn:
        scope, agents = registry.catalog(args.tenant, args.project)  # one transaction
    if args.json:
        print(as_json(agents))
        return
    tenant, project = scope.tenant, scope.project
    where = f"{tenant.slug}/{project.slug}" if project else f"{tenant.slug} (tenant-wide)"
    print(f"Effective agents for {where}:")
    print(_catalog_table(agents))
    if agents:
        estimated = "" if agents[0].tokens_exact else ", estimated"
        print(f"(tokens: what each agent's instructions add to every question{estimated}; "
              "uses: this tenant's conversations that adopted it)")


def cmd_default(args: argparse.Namespace) -> None:
    if args.action != "show":
        cmd_default_set(args)
        return
    if args.tenant is None:
        raise InvalidInput("give --tenant (and --project) to show a scope's effective default")
    registry, conn = open_registry(args)
    with conn:
        default = registry.default(args.tenant, args.project)
    print(as_json(default) if args.json else describe_default(default))


def cmd_conversation(args: argparse.Namespace) -> None:
    if args.action == "start":
        if args.tenant is None:
            raise InvalidInput("give --tenant (and --project) to start a conversation")
        args.agent = args.start_agent
        cmd_conversation_start(args)
        return
    if args.id is None:
        raise InvalidInput(f"give the conversation id: registry conversation {args.action} ID")
    if args.action in ("pin", "unpin"):
        if args.action == "pin" and args.agent is None:
            raise InvalidInput("give the slug to pin, or '' for explicitly no agent: registry conversation pin ID SLUG")
        cmd_conversation_pin(args)
        return
    registry, conn = open_registry(args)
    with conn:
        resolved = registry.conversation(args.id)
    print(as_json(resolved) if args.json else describe_conversation(resolved))


def cmd_prompt(args: argparse.Namespace) -> None:
    rules = read_text_file(args.rules if args.rules is not None else PRODUCT_RULES_FILE, "--rules")
    if args.explain or args.workspace is not None:
        cmd_prompt_assembled(args, rules)
        return
    from registry.frame import frame_system_prompt

    registry, conn = open_registry(args)
    with conn:
        resolved, agent = registry.conversation_with_agent(args.conversation)
    framed = frame_system_prompt(rules, agent)
    if args.json:
        print(json.dumps({"conversation": resolved.model_dump(mode="json"), "text": framed.text,
                          "tokens": dict(framed.tokens), "fingerprint": framed.fingerprint,
                          "refusal": _refusal_json(framed.refusal)}, ensure_ascii=False, indent=2))
        return
    print(framed.text, end="")
    print("-" * 72)
    print(describe_conversation(resolved))
    _print_refusal(resolved, framed.refusal)
    counts = ", ".join(f"{part} {n}" for part, n in framed.tokens.items())
    print(f"Tokens: {counts}")
    print(f"Fingerprint: sha256:{framed.fingerprint}")


def cmd_prompt_assembled(args: argparse.Namespace, rules: str) -> None:
    """The prompt by layers (product rules, agent, instruction files, project context, task state)."""
    from registry.assembly import explain
    from registry.prompting import conversation_prompt

    budgets = dict(_budget(b) for b in args.budget or [])
    registry, conn = open_registry(args)
    with conn:
        built = conversation_prompt(registry, args.conversation, rules,
                                    workspace=_workspace(args.workspace), budgets=budgets)
    assembled = built.assembled
    if args.json:
        print(json.dumps({"conversation": built.conversation.model_dump(mode="json"), "text": assembled.text,
                          "layers": [vars(r) | {"strategy": str(r.strategy)} for r in assembled.layers],
                          "tokens_total": assembled.tokens_total, "estimated": assembled.estimated,
                          "fingerprint": assembled.fingerprint, "refusal": _refusal_json(built.refusal)},
                         ensure_ascii=False, indent=2))
        return
    print(explain(assembled) if args.explain else assembled.text, end="" if not args.explain else "\n")
    _print_refusal(built.conversation, built.refusal)


def _workspace(value: str | None) -> Path | None:
    """--workspace names a directory that exists: a typo is an error, not an empty layer."""
    if value is None:
        return None
    path = Path(value)
    if value.strip() == "" or not path.exists():
        raise TextFileMissing(f"--workspace {value}: no such directory")
    if not path.is_dir():
        raise TextFileError(f"--workspace {value}: not a directory")
    return path


def _budget(text: str) -> tuple[str, int]:
    name, _, value = text.partition("=")
    if not is_ascii_id(value):
        raise InvalidInput(f"--budget takes LAYER=TOKENS, e.g. instruction_files=500 (got {text!r})")
    return name, int(value)


def _print_refusal(resolved, refusal) -> None:
    if refusal is not None:
        print(f"NOT FRAMED: agent {resolved.slug!r} fails the instruction gate "
              f"({refusal.reason}: {refusal.excerpt!r}); the prompt holds the product's rules only")


def _refusal_json(refusal) -> dict | None:
    return None if refusal is None else {"reason": refusal.reason, "excerpt": refusal.excerpt, "message": str(refusal)}


def cmd_migrate(args: argparse.Namespace) -> None:
    """Upgrade, or with --downgrade go down, saying what happened: the database's revision is
    read before and after, never assumed (docs/dba.md)."""
    if args.sql:
        if args.downgrade:
            print(migrate.offline_downgrade_script(args.revision), end="")
        else:
            print(migrate.offline_script(args.revision), end="")
        return
    url = db.database_url()
    plan = migrate.plan(url, args.revision)
    before, target = plan.before or "base", plan.target or "base"
    if plan.direction == "downgrade" and not args.downgrade:
        raise migrate.MigrationRefused(
            f"the database is at {before}; {target} is below it: going there is a downgrade, which drops what "
            f"later revisions added. Nothing was changed; re-run with --downgrade to see what it drops and confirm")
    if plan.direction == "upgrade" and args.downgrade:
        raise migrate.MigrationRefused(f"--downgrade: the database is at {before}; {target} is above it. "
                                       "Nothing was changed; run without --downgrade to upgrade")
    if plan.direction == "none":
        if args.downgrade:
            print(f"Database already at {before}; nothing to downgrade.")
            return
        migrate.upgrade(url, plan.target or "base")  # re-creates the replaceable objects
        print(f"Database already at {before}; no revision to apply (views, functions and triggers re-applied).")
        return
    if plan.direction == "upgrade":
        _, after = migrate.upgrade(url, plan.target or "base")
        print(f"Database migrated from {before} to {after or 'base'}.")
        return
    _confirm_downgrade(args, plan)
    _, after = migrate.downgrade(url, plan.target or "base")
    print(f"Database downgraded from {before} to {after or 'base'}.")


def _confirm_downgrade(args: argparse.Namespace, plan: migrate.MigrationPlan) -> None:
    """Name what the downgrade drops, with row counts; go on only with --yes or a "y" at a terminal."""
    where = f"from {plan.before or 'base'} to {plan.target or 'base'}"
    if not plan.drops:
        print(f"Downgrade {where}: no table or column is dropped.")
    else:
        print(f"Downgrade {where} drops:")
        for dropped in plan.drops:
            print(f"  {dropped.describe()}  (revision {dropped.revision})")
    if not plan.loses_data or args.yes:
        return
    if not sys.stdin.isatty():
        raise InvalidInput("not confirmed: nothing was changed; re-run with --yes to drop this data "
                           "(take a pg_dump first)")
    try:
        answer = input("Drop this data? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise InvalidInput("not confirmed: nothing was changed")


def cmd_seed(args: argparse.Namespace) -> None:
    with db.connect() as conn:
        report = load_seeds(conn, demo=not args.no_demo)
    details = ", ".join(f"{n} {kind}" for kind, n in report.changed.items() if n) or "nothing changed"
    print(f"Seeds loaded: {details}.")


def cmd_demo(args: argparse.Namespace) -> None:
    url = db.database_url()
    where = "REGISTRY_DATABASE_URL" if db.configured_url() else f"the embedded PostgreSQL in {default_data_dir()}"
    print(f"Database: {where}")
    migrate.upgrade(url, "head")
    print("Migrated to head.")
    with db.connect(url) as conn:
        report = load_seeds(conn)
        print(f"Seeds loaded ({report.total} rows inserted or changed; 0 means they were already there).")
        registry = Registry(conn)
        with registry.transaction() as conn:  # what the demo shows, read in one transaction
            scope = registry.scope_in(conn, DEMO_TENANT, DEMO_PROJECT)
            tenant, project = scope.tenant, scope.project
            agents = registry.agents_in(conn, scope)
            default = repository.effective_default(conn, tenant.id, project.id)
            conversations = [repository.conversation_agent(conn, cid) for cid in _demo_conversations(conn, project.id)]
    print()
    print(f"Effective catalog of project {tenant.slug}/{project.slug} (the most specific layer wins by slug):")
    print(_catalog_table(agents))
    print()
    print(describe_default(default))
    print()
    print("Conversations, one in each state:")
    print(table(["id", "mode", "slug", "agent", "orphaned"],
                [(c.conversation_id, c.mode, c.slug, c.agent_id, c.orphaned) for c in conversations]))
    print()
    print("Next: registry agents --tenant acme --project vendas   (an opt-out and a draft override;")
    print("      from the checkout: ./dev agents --tenant acme --project vendas)")


def _demo_conversations(conn: psycopg.Connection, project_id: int) -> list[int]:
    rows = conn.execute(queries.conversations_of_project, (project_id,)).fetchall()
    return [r[0] for r in rows]


def cmd_db(args: argparse.Namespace) -> None:
    if db.configured_url():
        print("REGISTRY_DATABASE_URL is set; the embedded server is not used.", file=sys.stderr)
    server = EmbeddedServer(default_data_dir())
    if args.action == "start":
        print(server.start())
    elif args.action == "stop":
        print("Stopped." if server.stop() else "The embedded PostgreSQL was not running.")
    elif args.action == "status":
        state = "running" if server.is_running() else ("stopped" if server.is_initialised() else "not created")
        print(f"{server.data_dir}: {state}")
    elif args.action == "url":
        print(server.url() if server.is_initialised() else server.start())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="registry",
        description="A layered registry of AI agents (official, tenant, project). "
        "Uses REGISTRY_DATABASE_URL, or an embedded PostgreSQL when it is unset.",
    )
    parser.add_argument("--actor", help="who is making the change, kept in the history "
                        "(default: $REGISTRY_ACTOR, else your user name)")
    parser.add_argument("--as-tenant", metavar="TENANT", help="act as this tenant (slug or id): row-level security "
                        "as registry_app, so only the official layer and this tenant's rows exist; an empty, "
                        "malformed or unknown tenant is refused before anything runs")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace], None], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    add("demo", cmd_demo, "migrate, load the seeds and show a demo project's resolved agents")

    p = add("migrate", cmd_migrate, "upgrade the database schema (Alembic); --downgrade to go down")
    p.add_argument("--revision", default="head", help="target revision: head (the default), base, an id such as "
                   "0003, or a step such as -1")
    p.add_argument("--downgrade", action="store_true", help="go down to --revision (required for a revision "
                   "below the database's): lists the tables and columns it drops with their row counts and asks")
    p.add_argument("--yes", action="store_true", help="with --downgrade: drop the data without asking")
    p.add_argument("--sql", action="store_true", help="print the SQL script instead of running it (no database); "
                   "with --downgrade, the script from head down to --revision")

    p = add("seed", cmd_seed, "load the official agents and the demo data (idempotent)")
    p.add_argument("--no-demo", action="store_true", help="official agents only")

    p = add("agents", cmd_agents, "the effective agents of a tenant or project, with their token cost")
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", help="project slug or id (omit for the tenant-wide scope)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("default", cmd_default, "show a scope's effective default agent, or set/clear a layer's default")
    p.add_argument("action", choices=["show", "set", "clear"], help="show (the default), set VALUE, or clear "
                   "(back to inheriting)")
    p.add_argument("value", nargs="?", help="with set: the default agent's slug, or '' for explicitly none")
    p.add_argument("--tenant", help="tenant slug or id (omit with set/clear for the official layer)")
    p.add_argument("--project", help="project slug or id")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--yes", action="store_true", help="set/clear without asking")

    p = add("conversation", cmd_conversation, "show a conversation's agent; start, pin or unpin conversations")
    p.add_argument("action", choices=["show", "start", "pin", "unpin"],
                   help="show ID (the default), start --tenant T, pin ID SLUG ('' = no agent), unpin ID")
    p.add_argument("id", nargs="?", type=ascii_int, help="conversation id")
    p.add_argument("agent", nargs="?", help="with pin: the slug to pin, or '' for explicitly no agent")
    p.add_argument("--tenant", help="with start: tenant slug or id")
    p.add_argument("--project", help="with start: project slug or id")
    p.add_argument("--agent", dest="start_agent", help="with start: pin this slug ('' = no agent) instead of "
                   "following the default")
    p.add_argument("--slug", help="with start: a human key for the conversation")
    p.add_argument("--title", help="with start: a title")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("prompt", cmd_prompt, "the system prompt of a conversation: product rules, then its framed agent")
    p.add_argument("--conversation", type=ascii_int, required=True, help="conversation id")
    p.add_argument("--rules", help="product rules file, UTF-8 "
                   f"(default: {PRODUCT_RULES_FILE.relative_to(SEEDS_DIR.parent)})")
    p.add_argument("--explain", action="store_true", help="assemble by layers and show each layer's tokens, "
                   "budget and cut, then the prompt")
    p.add_argument("--workspace", help="a workspace whose AGENTS.md files join the instruction files layer")
    p.add_argument("--budget", action="append", metavar="LAYER=TOKENS", help="override a layer's token budget "
                   "(repeatable), e.g. --budget instruction_files=500")
    p.add_argument("--json", action="store_true", help="print JSON")

    add_write_commands(sub, add)
    add_bench_commands(sub, add)
    add_gate_commands(sub, add)

    p = add("db", cmd_db, "manage the embedded PostgreSQL")
    p.add_argument("action", choices=["start", "stop", "status", "url"])
    return parser


def check_arguments(args: argparse.Namespace) -> None:
    """Before anything runs: every value from argv is text (bytes that are not UTF-8 arrive as
    lone surrogates), and every tenant, project and agent reference is an id or a valid slug
    (registry.refs) — converted in place, so nothing downstream guesses again."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and (bad := not_utf8(item)) is not None:
                option = name if name in ("agent", "slug", "value", "path", "directory") else "--" + name.replace("_", "-")
                raise InvalidReference(f"{option} is not valid UTF-8 ({bad})")
    if args.as_tenant is not None:
        args.as_tenant = parse_ref(args.as_tenant, "--as-tenant")
    for name in ("tenant", "project"):
        if getattr(args, name, None) is not None:
            setattr(args, name, parse_ref(getattr(args, name), f"--{name}"))
    agent = getattr(args, "agent", None)
    if args.command == "agent" and agent is not None:
        args.agent = parse_ref(agent, "agent")
    elif args.command == "optout":
        args.agent = parse_slug(agent, "--agent")
    elif args.command == "impact" and agent is not None:
        args.agent = (parse_slug(agent, "agent", allow_empty=args.change == "default")
                      if args.change in ("optout", "default") else parse_ref(agent, "agent"))
    elif args.command == "conversation":
        if agent is not None:
            args.agent = parse_slug(agent, "agent", allow_empty=True)
        if args.start_agent is not None:
            args.start_agent = parse_slug(args.start_agent, "--agent", allow_empty=True)
    elif args.command == "default" and args.value is not None:
        args.value = parse_slug(args.value, "the default agent", allow_empty=True)


def _with_default_actions(argv: list[str]) -> list[str]:
    """`registry conversation ID` and `registry default --tenant T` read without an action word."""
    if len(argv) >= 2 and argv[0] == "conversation" and is_ascii_id(argv[1]):
        return ["conversation", "show", *argv[1:]]
    if len(argv) >= 2 and argv[0] == "default" and argv[1] not in ("show", "set", "clear", "-h", "--help"):
        return ["default", "show", *argv[1:]]
    return argv


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
    argv = list(sys.argv[1:] if argv is None else argv)
    start = 0
    while argv[start:start + 1]:
        if argv[start] in ("--actor", "--as-tenant"):
            start += 2
        elif argv[start].startswith(("--actor=", "--as-tenant=")):
            start += 1
        else:
            break
    argv = argv[:start] + _with_default_actions(argv[start:])
    args = build_parser().parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
