"""`registry agents`: a scope's effective catalog, with each agent's token cost."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from registry.explain import missing_words
from registry.models import CatalogEntry
from registry.render import as_json, table

from .parsing import command, json_option
from .session import run


def catalog_table(agents: Sequence[CatalogEntry]) -> str:
    return table(["slug", "layer", "version", "tokens", "uses", "available", "name"],
                 [(a.slug, a.layer, a.version, a.instruction_tokens, a.uses,
                   "yes" if a.available else f"no: needs {missing_words(a.missing)}", a.name) for a in agents])


def cmd_agents(args: argparse.Namespace) -> None:
    scope, agents = run(args, lambda r: r.catalog(args.tenant, args.project))  # one transaction
    if args.json:
        print(as_json(agents))
        return
    tenant, project = scope.tenant, scope.project
    where = f"{tenant.slug}/{project.slug}" if project else f"{tenant.slug} (tenant-wide)"
    print(f"Effective agents for {where}:")
    print(catalog_table(agents))
    if agents:
        estimated = "" if agents[0].tokens_exact else ", estimated"
        print(f"(tokens: what each agent's instructions add to every question{estimated}; "
              "uses: this tenant's conversations that adopted it)")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "agents", "the effective agents of a tenant or project, with their token cost", cmd_agents)
    p.add_argument("--tenant", required=True, help="tenant slug or id")
    p.add_argument("--project", help="project slug or id (omit for the tenant-wide scope)")
    json_option(p)
