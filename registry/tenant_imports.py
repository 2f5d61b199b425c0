"""Importing an export of several tenants one tenant directory at a time (`registry import DIR
--each-tenant`; hostile round 13, R12; ADR 0025).

`registry import DIR` is all or nothing: one file refused and nothing is written. For an export of
every tenant that lets one tenant decide whether all the others come back — its own rows, written in
SQL, can hold what the import refuses. With --each-tenant each directory directly under DIR
(`official/`, `<tenant>/`, with its projects' folders inside) is imported in its own
all-or-nothing transaction, and the files directly in DIR form one more; each is reported,
committed or refused. A tenant directory must hold that tenant's files only, `official/` the
official layer's: a file naming another tenant would otherwise be written in that directory's
transaction and reported as its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from registry.agent_io import ImportRefused, ImportReport, import_files, import_paths
from registry.api import Registry
from registry.errors import InvalidInput, RegistryError
from registry.text_files import TextFileMissing

OFFICIAL = "official"  # registry.agent_export writes the official layer there
TOP = "."  # the files directly in the directory imported


@dataclass
class DirectoryImport:
    directory: str  # a name directly under DIR, or TOP
    committed: bool
    report: ImportReport  # a refused directory's lists only what was refused: nothing of it was written


class DirectoriesRefused(RegistryError):
    """Some tenant directories were refused (nothing written for them); the others were committed."""

    def __init__(self, results: list[DirectoryImport]) -> None:
        self.results = results
        refused = [r for r in results if not r.committed]
        lines = [f"import --each-tenant: {len(refused)} of {len(results)} directories refused, nothing was written "
                 f"for {'it' if len(refused) == 1 else 'them'} (the {len(results) - len(refused)} other(s) were "
                 "committed):"]
        for result in refused:
            lines.append(f"  {shown(result.directory)}: {len(result.report.refused)} file(s) to fix")
            lines += [f"    {source}: {reason}" for source, reason in result.report.refused]
        super().__init__("\n".join(lines))


def shown(directory: str) -> str:
    return "the top level" if directory == TOP else f"{directory}/"


def directories(path: Path) -> list[tuple[str, list[Path], list[Path]]]:
    """What an import of `path` reads, by the directory directly under it (TOP: files directly in it):
    (directory, agent files, scope files), the official layer first, then by name."""
    agents, scopes = import_paths(path)
    groups: dict[str, tuple[list[Path], list[Path]]] = {}
    for kind, paths in enumerate((agents, scopes)):
        for file in paths:
            groups.setdefault(_directory_of(path, file), ([], []))[kind].append(file)
    return [(name, *groups[name]) for name in sorted(groups, key=lambda name: (name != OFFICIAL, name))]


def _directory_of(root: Path, file: Path) -> str:
    try:
        parts = file.relative_to(root).parts
    except ValueError:
        return TOP
    return parts[0] if len(parts) > 1 else TOP


def _tenant_rule(directory: str) -> Callable[[str | int | None], str | None] | None:
    """Why a file naming this tenant is not at home in `directory` (None: it is)."""
    if directory == TOP:
        return None
    if directory == OFFICIAL:
        return lambda tenant: None if tenant is None else (
            f"names tenant {tenant!r}: {OFFICIAL}/ holds the official layer (--each-tenant imports each directory "
            "with the layer it is named after)")
    return lambda tenant: None if tenant == directory else (
        f"names {'no tenant' if tenant is None else f'tenant {tenant!r}'}, not its directory's {directory}: under "
        "--each-tenant a tenant directory holds that tenant's files (--each-tenant takes a directory of tenant "
        "directories, an export's top folder)")


def import_each_tenant(registry: Registry, path: Path) -> list[DirectoryImport]:
    """Import every directory under `path` in its own transaction; a refused one writes nothing and the
    others go on. Errors that are not about the files (the database gone) end the whole import."""
    if not path.exists():
        raise TextFileMissing(f"{path}: no such file or directory")
    if not path.is_dir():
        raise InvalidInput(f"{path}: --each-tenant takes a directory of tenant directories (an export's top "
                           "folder), not a file: import the file without it")
    results = []
    for directory, agents, scopes in directories(path):
        try:
            results.append(DirectoryImport(directory, True, import_files(registry, agents, scopes,
                                                                         _tenant_rule(directory))))
        except ImportRefused as refused:
            results.append(DirectoryImport(directory, False, ImportReport(refused=refused.report.refused)))
        except RegistryError as error:
            # A write this login may not make (an official agent under --as-tenant): the directory's transaction is
            # rolled back, as a refusal's.
            refused = ImportReport(refused=[(str(path / directory), str(error))])
            results.append(DirectoryImport(directory, False, refused))
    return results


def refusal_hint(path: Path, report: ImportReport) -> str | None:
    """For an all-or-nothing import of several directories that was refused: which ones hold the refused
    files, and how to import the others (None when `path` is not such a directory)."""
    if not path.is_dir():
        return None
    names = [name for name, _, _ in directories(path)]
    if len(names) < 2:
        return None
    refused = [name for name in names if name in {_directory_of(path, Path(source)) for source, _ in report.refused}]
    clean = [name for name in names if name not in refused]
    kind = "directories" if len(refused) > 1 else "directory" if refused[0] in (OFFICIAL, TOP) else "tenant directory"
    where = f"the refused file(s) are in the {kind} {', '.join(shown(name) for name in refused)}"
    if not clean:
        return f"{where}: every directory of {path} has a file to fix"
    example = next((name for name in clean if name not in (OFFICIAL, TOP)), clean[0])
    return (f"{where}; nothing in {', '.join(shown(name) for name in clean)} was refused: import "
            f"{'that' if len(clean) == 1 else 'those'} alone (registry import {path / example}), or the whole of "
            f"{path} with --each-tenant, which commits each tenant directory in its own transaction and refuses "
            "only those with a file to fix")
