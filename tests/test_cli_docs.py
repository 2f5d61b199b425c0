"""The README's command table lists exactly the CLI's commands and their subcommands, both ways
(as datasette's tests/test_docs.py fails when a command is undocumented)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from registry.cli import build_parser

README = Path(__file__).resolve().parent.parent / "README.md"
CODE_SPAN = re.compile(r"`([^`]+)`")
SUBCOMMANDS = re.compile(r"^[a-z][a-z-]*(\|[a-z][a-z-]*)*$")  # show|set|clear, not PATH or [--json]


def documented() -> dict[str, set[str]]:
    """{command: its subcommands} from the first cell of each row of "The command line" table."""
    section = README.read_text(encoding="utf-8").split("## The command line", 1)[1].split("\n## ", 1)[0]
    commands: dict[str, set[str]] = {}
    for row in section.splitlines():
        if not row.startswith("| `registry"):
            continue
        first_cell = re.split(r"(?<!\\)\|", row)[1]
        for span in CODE_SPAN.findall(first_cell):
            words = span.replace("\\|", "|").split()[1:]
            while words and words[0].startswith("-"):  # global options: --as-tenant T
                words = words[2:] if len(words) > 1 and words[1].isupper() else words[1:]
            if not words or words[0] == "COMMAND":
                continue
            subs = words[1] if len(words) > 1 and SUBCOMMANDS.match(words[1]) else ""
            commands.setdefault(words[0], set()).update(filter(None, subs.split("|")))
    return commands


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(found[0].choices) if found else {}


def actual() -> dict[str, set[str]]:
    return {name: set(_subparsers(p)) for name, p in _subparsers(build_parser()).items()}


def test_the_readme_table_lists_every_command_and_subcommand():
    docs, cli = documented(), actual()
    assert set(cli) - set(docs) == set(), "commands the README's table does not list"
    assert set(docs) - set(cli) == set(), "commands the README lists that the CLI does not have"
    for name in cli:
        assert docs[name] == cli[name], (name, "README lists", sorted(docs[name]), "the CLI has", sorted(cli[name]))


def test_the_table_is_read_at_all():
    """A parser that reads nothing would make the test above pass for an empty CLI."""
    docs = documented()
    assert {"demo", "agent", "default", "conversation", "db"} <= set(docs)
    assert docs["conversation"] == {"show", "start", "pin", "unpin"}
