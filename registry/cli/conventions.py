"""`registry conventions add|list|show|history|update|delete`: directory-scoped conventions, layered
like agents (no --tenant: official; --tenant: the tenant's; --project too: the project's)."""

from __future__ import annotations

import argparse
import json

from registry.errors import InvalidInput
from registry.refs import ascii_int
from registry.text_files import read_text_file

from .parsing import action, actions, command, json_option
from .session import run


def _text(args: argparse.Namespace) -> str:
    if (args.text is None) == (args.text_file is None):
        raise InvalidInput("give the convention as --text TEXT or --text-file PATH (one of them)")
    return args.text if args.text is not None else read_text_file(args.text_file, "--text-file")


def cmd_add(args: argparse.Namespace) -> None:
    from registry.conventions import add_convention

    directory = args.dir if args.dir is not None else (None if args.language else "")
    stored = run(args, lambda r: add_convention(r, _text(args), tenant=args.tenant, project=args.project,
                                                directory=directory, language=args.language))
    print(f"Convention {stored.id} added to the {stored.layer} layer ({_where(stored)}), version {stored.version}.")


def cmd_list(args: argparse.Namespace) -> None:
    from registry.conventions import scope_conventions

    from registry.harness.scoped_conventions import normalise_directory, normalise_language

    rows = run(args, lambda r: scope_conventions(r, args.tenant, args.project))
    # Exactly the rows written for that directory / language (`show` resolves what applies there).
    if args.dir is not None:
        rows = [row for row in rows if row.directory == normalise_directory(args.dir)]
    if args.language is not None:
        rows = [row for row in rows if row.language == normalise_language(args.language)]
    if args.json:
        print(json.dumps([vars(row) for row in rows], ensure_ascii=False, indent=2))
        return
    print(f"{'id':>5}  {'layer':<8} {'version':>7}  {'where':<32} text")
    for row in rows:
        first = row.body.splitlines()[0] if row.body else ""
        print(f"{row.id:>5}  {row.layer:<8} {row.version:>7}  {_where(row):<32} {first[:60]}")


def cmd_show(args: argparse.Namespace) -> None:
    from registry.conventions import resolve_for_directory

    def resolve(r):
        scope = r.scope(args.tenant, args.project)
        return resolve_for_directory(r, scope.tenant_id, scope.project_id, args.dir or "", args.language,
                                     limit_tokens=args.limit)

    resolved = run(args, resolve)
    if args.json:
        print(json.dumps({"directory": resolved.directory, "language": resolved.language, "tokens": resolved.tokens,
                          "kept": [vars(c) for c in resolved.kept],
                          "duplicates": [c.id for c in resolved.duplicates],
                          "over_limit": [c.id for c in resolved.over_limit],
                          "refused": [c.id for c in resolved.refused]}, ensure_ascii=False, indent=2))
        return
    where = resolved.directory or "the project root"
    print(f"Conventions for {where}" + (f" ({resolved.language})" if resolved.language else "")
          + f": {len(resolved.kept)} kept, {resolved.tokens} tokens (limit {args.limit}), nearest first")
    for convention in resolved.kept:
        print(f"  {convention.id:>5}  {convention.layer:<8} {convention.where}")
    for label, left_out in (("duplicate of a nearer one", resolved.duplicates),
                            ("past the token limit", resolved.over_limit),
                            ("refused by the instruction gate", resolved.refused)):
        for convention in left_out:
            print(f"  {convention.id:>5}  left out: {label}")
    units = resolved.units()
    if units:
        print("-" * 72)
        print("\n\n".join(units))


def cmd_history(args: argparse.Namespace) -> None:
    from registry.conventions import convention, convention_history

    current, versions = run(args, lambda r: (convention(r, args.id), convention_history(r, args.id)))
    print(f"Convention {current.id}, {current.layer} layer ({_where(current)}), version {current.version}:")
    print(current.body)
    for version in reversed(versions):
        print("-" * 72)
        print(f"version {version.version}, replaced by {version.replaced_by} at {version.replaced_at:%Y-%m-%d %H:%M}:")
        print(version.body)


def cmd_update(args: argparse.Namespace) -> None:
    from registry.conventions import update_convention

    stored = run(args, lambda r: update_convention(r, args.id, _text(args), args.expected_version))
    print(f"Convention {stored.id} is at version {stored.version}.")


def cmd_delete(args: argparse.Namespace) -> None:
    from registry.conventions import delete_convention

    run(args, lambda r: delete_convention(r, args.id))
    print(f"Convention {args.id} deleted.")


def _where(row) -> str:
    if row.directory is None:
        return f"language {row.language}"
    place = f"{row.directory}/" if row.directory else "project root"
    return f"{place} ({row.language})" if row.language else place


def _scope(p: argparse.ArgumentParser, tenant_required: bool) -> None:
    p.add_argument("--tenant", required=tenant_required, help="tenant slug or id" + (
        "" if tenant_required else " (none: the official layer)"))
    p.add_argument("--project", help="project slug or id")


def _text_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--text", help="the convention's text (passes the instruction gate; at most 2,000 characters)")
    p.add_argument("--text-file", help="read the text from this file (UTF-8)")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "conventions", "directory-scoped conventions, layered like agents"))
    p = action(sub, "add", cmd_add, "add a convention to a layer")
    _scope(p, tenant_required=False)
    p.add_argument("--dir", help="directory relative to the project root (default: the root; with --language "
                   "alone: a language-level convention)")
    p.add_argument("--language", help="only for this language (e.g. python)")
    _text_options(p)
    p = action(sub, "list", cmd_list, "every convention a scope sees (official, tenant, project)")
    _scope(p, tenant_required=True)
    p.add_argument("--dir", help="only those written for exactly this directory ('.' the root)")
    p.add_argument("--language", help="only those written for exactly this language")
    json_option(p)
    p = action(sub, "show", cmd_show, "the conventions that apply in a directory, as the prompt gets them")
    _scope(p, tenant_required=True)
    p.add_argument("--dir", help="directory relative to the project root (default: the root)")
    p.add_argument("--language", help="the language asked for (e.g. python)")
    p.add_argument("--limit", type=ascii_int, default=1000, help="token limit (default 1000)")
    json_option(p)
    p = action(sub, "history", cmd_history, "a convention's text and the versions it replaced")
    p.add_argument("id", type=ascii_int, help="convention id")
    p = action(sub, "update", cmd_update, "change a convention's text (a new version)")
    p.add_argument("id", type=ascii_int, help="convention id")
    _text_options(p)
    p.add_argument("--expected-version", type=ascii_int, help="refuse if it is no longer at this version")
    p = action(sub, "delete", cmd_delete, "remove a convention and its history")
    p.add_argument("id", type=ascii_int, help="convention id")
