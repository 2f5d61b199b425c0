"""`registry import PATH` and `registry export DIR`: agent files in and out, all or nothing."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from registry.agent_io import export_agents, import_agents
from registry.scope_files import FILE_NAME as SCOPE_FILE
from registry.text_files import TextFileError

from .parsing import command, json_option
from .session import run


def cmd_import(args: argparse.Namespace) -> None:
    if args.path.strip() == "":
        raise TextFileError("import: the path is empty: give an agent file or a directory of them")
    report = run(args, lambda r: import_agents(r, Path(args.path)))
    if args.json:
        print(json.dumps(report.__dict__, indent=2))
        return
    print(f"Imported {args.path}: {report.summary()}.")
    for source, what in report.shadowing:
        print(f"  {source}: {what}")


def cmd_export(args: argparse.Namespace) -> None:
    written = run(args, lambda r: export_agents(r, Path(args.directory), tenant=args.tenant))
    scopes = sum(1 for path in written if path.name == SCOPE_FILE)
    print(f"Exported {len(written) - scopes} agent file(s) to {args.directory}"
          + (f", and {scopes} {SCOPE_FILE} file(s) (groups and terms)." if scopes else "."))


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "import", "import agent files (a file or a directory): all of them or none", cmd_import)
    p.add_argument("path")
    json_option(p)

    p = command(commands, "export", "write agents as files: official/, <tenant>/, <tenant>/<project>/", cmd_export)
    p.add_argument("directory")
    p.add_argument("--tenant", help="only the official agents and this tenant's")
