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

from registry import db, migrate, repository
from registry.embedded import EmbeddedServer, default_data_dir
from registry.errors import DatabaseUnavailable, RegistryError, first_line
from registry.models import EffectiveAgent
from registry.paths import SEEDS_DIR
from registry.render import as_json, table
from registry.seeding import load_seeds

DEMO_TENANT = "acme"
DEMO_PROJECT = "financeiro"
PRODUCT_RULES_FILE = SEEDS_DIR / "product_rules.md"


def _scope(conn: psycopg.Connection, tenant_ref: str, project_ref: str | None):
    tenant = repository.find_tenant(conn, tenant_ref)
    project = repository.find_project(conn, tenant, project_ref) if project_ref is not None else None
    return tenant, project


def _catalog_table(agents: Sequence[EffectiveAgent]) -> str:
    return table(["slug", "layer", "version", "name"], [(a.slug, a.layer, a.version, a.name) for a in agents])


def cmd_agents(args: argparse.Namespace) -> None:
    with db.connect() as conn:
        tenant, project = _scope(conn, args.tenant, args.project)
        agents = repository.effective_agents(conn, tenant.id, project.id if project else None)
    if args.json:
        print(as_json(agents))
        return
    where = f"{tenant.slug}/{project.slug}" if project else f"{tenant.slug} (tenant-wide)"
    print(f"Effective agents for {where}:")
    print(_catalog_table(agents))


def cmd_default(args: argparse.Namespace) -> None:
    with db.connect() as conn:
        tenant, project = _scope(conn, args.tenant, args.project)
        default = repository.effective_default(conn, tenant.id, project.id if project else None)
    print(as_json(default) if args.json else _describe_default(default))


def _describe_default(default) -> str:
    if default.source_layer is None:
        return "Default agent: none (no layer sets one)"
    if default.default_agent == "":
        return f"Default agent: none (set to '' by the {default.source_layer} layer)"
    state = f"agent #{default.agent_id}" if not default.orphaned else "ORPHANED: resolves to no agent here"
    return f"Default agent: {default.default_agent} (set by the {default.source_layer} layer; {state})"


def cmd_conversation(args: argparse.Namespace) -> None:
    with db.connect() as conn:
        resolved = repository.conversation_agent(conn, args.id)
    print(as_json(resolved) if args.json else _describe_conversation(resolved))


def _describe_conversation(c) -> str:
    follows = {
        "pinned": f"pinned to {c.slug}",
        "none": "explicitly without an agent",
        "default": f"follows the default ({c.slug or 'none'})",
    }[c.mode]
    if c.orphaned:
        outcome = f"ORPHANED: {c.slug!r} resolves to no agent here, so it runs without one"
    elif c.agent_id is None:
        outcome = "runs without an agent"
    else:
        outcome = f"runs with agent #{c.agent_id}"
    return f"Conversation {c.conversation_id}: {follows}; {outcome}"


def cmd_prompt(args: argparse.Namespace) -> None:
    from registry.frame import frame_system_prompt

    rules = Path(args.rules).read_text(encoding="utf-8") if args.rules else PRODUCT_RULES_FILE.read_text(encoding="utf-8")
    with db.connect() as conn:
        resolved, agent = repository.conversation_effective_agent(conn, args.conversation)
    framed = frame_system_prompt(rules, agent)
    if args.json:
        print(json.dumps({"conversation": resolved.model_dump(mode="json"), "text": framed.text,
                          "tokens": dict(framed.tokens), "fingerprint": framed.fingerprint,
                          "refusal": _refusal_json(framed.refusal)}, ensure_ascii=False, indent=2))
        return
    print(framed.text, end="")
    print("-" * 72)
    print(_describe_conversation(resolved))
    if framed.refusal is not None:
        print(f"NOT FRAMED: agent {resolved.slug!r} fails the instruction gate "
              f"({framed.refusal.reason}: {framed.refusal.excerpt!r}); the prompt holds the product's rules only")
    counts = ", ".join(f"{part} {n}" for part, n in framed.tokens.items())
    print(f"Tokens: {counts}")
    print(f"Fingerprint: sha256:{framed.fingerprint}")


def _refusal_json(refusal) -> dict | None:
    return None if refusal is None else {"reason": refusal.reason, "excerpt": refusal.excerpt, "message": str(refusal)}


def cmd_migrate(args: argparse.Namespace) -> None:
    if args.sql:
        print(migrate.offline_script(args.revision), end="")
        return
    url = db.database_url()
    migrate.upgrade(url, args.revision)
    print(f"Database migrated to {args.revision}.")


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
        tenant, project = _scope(conn, DEMO_TENANT, DEMO_PROJECT)
        agents = repository.effective_agents(conn, tenant.id, project.id)
        default = repository.effective_default(conn, tenant.id, project.id)
        conversations = [repository.conversation_agent(conn, cid) for cid in _demo_conversations(conn, project.id)]
    print()
    print(f"Effective catalog of project {tenant.slug}/{project.slug} (the most specific layer wins by slug):")
    print(_catalog_table(agents))
    print()
    print(_describe_default(default))
    print()
    print("Conversations, one in each state:")
    print(table(["id", "mode", "slug", "agent", "orphaned"],
                [(c.conversation_id, c.mode, c.slug, c.agent_id, c.orphaned) for c in conversations]))
    print()
    print("Next: registry agents --tenant acme --project vendas   (an opt-out and a draft override;")
    print("      from the checkout: ./dev agents --tenant acme --project vendas)")


def _demo_conversations(conn: psycopg.Connection, project_id: int) -> list[int]:
    rows = conn.execute("SELECT id FROM conversations WHERE project_id = %s ORDER BY id", (project_id,)).fetchall()
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
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace], None], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    add("demo", cmd_demo, "migrate, load the seeds and show a demo project's resolved agents")

    p = add("migrate", cmd_migrate, "upgrade the database schema (Alembic)")
    p.add_argument("--revision", default="head", help="target revision (default: head)")
    p.add_argument("--sql", action="store_true", help="print the SQL script instead of running it (no database)")

    p = add("seed", cmd_seed, "load the official agents and the demo data (idempotent)")
    p.add_argument("--no-demo", action="store_true", help="official agents only")

    for name, handler, text in (("agents", cmd_agents, "the effective agents of a tenant or project"),
                                ("default", cmd_default, "the effective default agent of a tenant or project")):
        p = add(name, handler, text)
        p.add_argument("--tenant", required=True, help="tenant slug or id")
        p.add_argument("--project", help="project slug or id (omit for the tenant-wide scope)")
        p.add_argument("--json", action="store_true", help="print JSON")

    p = add("conversation", cmd_conversation, "the agent a conversation runs with")
    p.add_argument("id", type=int, help="conversation id")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("prompt", cmd_prompt, "the system prompt of a conversation: product rules, then its framed agent")
    p.add_argument("--conversation", type=int, required=True, help="conversation id")
    p.add_argument("--rules", help=f"product rules file (default: {PRODUCT_RULES_FILE.relative_to(SEEDS_DIR.parent)})")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("db", cmd_db, "manage the embedded PostgreSQL")
    p.add_argument("action", choices=["start", "stop", "status", "url"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.handler(args)
    except RegistryError as error:
        print(f"registry: {error}", file=sys.stderr)
        return error.exit_code
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
