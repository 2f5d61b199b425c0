"""`registry import PATH` and `registry export DIR`: agent files in and out, all or nothing (or, with
--each-tenant, all or nothing per tenant directory)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from registry import tenant_imports
from registry.agent_export import ExportReport, export_agents
from registry.agent_io import ImportRefused, import_agents
from registry.scope_files import FILE_NAME as SCOPE_FILE
from registry.text_files import TextFileError

from .parsing import command, json_option
from .session import run


def cmd_import(args: argparse.Namespace) -> None:
    if args.path.strip() == "":
        raise TextFileError("import: the path is empty: give an agent file or a directory of them")
    path = Path(args.path)
    if args.each_tenant:
        _import_each_tenant(args, path)
        return
    try:
        report = run(args, lambda r: import_agents(r, path))
    except ImportRefused as refused:
        hint = tenant_imports.refusal_hint(path, refused.report)
        if hint is None:
            raise
        raise ImportRefused(refused.report, hint) from None
    if args.json:
        print(json.dumps(report.__dict__, indent=2))
        return
    print(f"Imported {args.path}: {report.summary()}.")
    for source, what in report.shadowing:
        print(f"  {source}: {what}")


def _import_each_tenant(args: argparse.Namespace, path: Path) -> None:
    results = run(args, lambda r: tenant_imports.import_each_tenant(r, path))
    committed = sum(1 for result in results if result.committed)
    if args.json:
        print(json.dumps({"each_tenant": True, "directories_committed": committed,
                          "directories_refused": len(results) - committed,
                          "directories": [{"directory": r.directory, "committed": r.committed, **r.report.__dict__}
                                          for r in results]}, indent=2))
    else:
        refused = len(results) - committed
        print(f"Imported {args.path}, each tenant directory in its own transaction: {committed} committed, "
              f"{refused} refused" + (" (nothing written for those)." if refused else "."))
        for result in results:
            if result.committed:
                print(f"  {tenant_imports.shown(result.directory)}: {result.report.summary()}")
                for source, what in result.report.shadowing:
                    print(f"    {source}: {what}")
            else:
                print(f"  {tenant_imports.shown(result.directory)}: refused, nothing written: "
                      f"{len(result.report.refused)} file(s) to fix (on stderr)")
    if committed < len(results):
        raise tenant_imports.DirectoriesRefused(results)  # exit 1: a cron job sees a directory was refused


def cmd_export(args: argparse.Namespace) -> None:
    report = run(args, lambda r: export_agents(r, Path(args.directory), tenant=args.tenant))
    # Exit 0 even when some file would be refused: the backup is whole, and a cron's `export && ship` must not
    # drop every tenant's backup for one tenant's row (ADR 0025). What would be refused is said on stderr, and in
    # --json as "importable" and "would_be_refused".
    if args.json:
        print(json.dumps({"directory": args.directory, "agent_files": len(report.agent_files),
                          "scope_files": len(report.scope_files), "importable": not report.would_be_refused,
                          "would_be_refused": [dataclasses.asdict(u) for u in report.would_be_refused]}, indent=2))
    else:
        scopes = len(report.scope_files)
        print(f"Exported {len(report.agent_files)} agent file(s) to {args.directory}"
              + (f", and {scopes} {SCOPE_FILE} file(s) (groups and terms)." if scopes else "."))
        if report.would_be_refused:
            print(_unimportable_summary(report))
    for unimportable in report.would_be_refused:
        where = f"tenant {unimportable.tenant}" if unimportable.tenant else "the official layer"
        if unimportable.project:
            where += f", project {unimportable.project}"
        print(f"registry: export: {unimportable.file} ({where}): registry import would refuse it: "
              f"{unimportable.reason}", file=sys.stderr)


def _unimportable_summary(report: ExportReport) -> str:
    total = len(report.agent_files) + len(report.scope_files)
    tenants = sorted({u.tenant or "official" for u in report.would_be_refused})
    return (f"{len(report.would_be_refused)} of the {total} files would be refused by registry import (each on "
            f"stderr), in {', '.join(t + '/' for t in tenants)}: they hold the rows as the database does. Fix those "
            "rows and export again, or import the export with --each-tenant, which commits every other tenant "
            "directory.")


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "import", "import agent files (a file or a directory): all of them or none", cmd_import)
    p.add_argument("path")
    p.add_argument("--each-tenant", action="store_true",
                   help="PATH is an export of several tenants: import each directory under it (official/, each "
                   "tenant's) in its own transaction, all or nothing for that directory; exit 1 if any was refused")
    json_option(p)

    p = command(commands, "export", "write agents as files: official/, <tenant>/, <tenant>/<project>/", cmd_export)
    p.add_argument("directory")
    p.add_argument("--tenant", help="only the official agents and this tenant's")
    json_option(p, "print JSON: the counts, and each file registry import would refuse (tenant, file, reason)")
