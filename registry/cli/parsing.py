"""How every command group declares itself: a command, and under it real argparse subcommands.

Each group module has `register(commands)`; it calls `command()` for its name and `actions()`
+ `action()` for its subcommands. Nothing here rewrites argv: what argparse parses is what ran.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

Handler = Callable[[argparse.Namespace], None]
# Given the word argparse refused (as argparse quoted it, escapes and all), a better sentence than
# its "invalid choice" (or None to keep it).
ChoiceHint = Callable[[str], "str | None"]

_INVALID_CHOICE = re.compile(r"argument ACTION: invalid choice: '(?P<word>.*)' \(choose from")


class Parser(argparse.ArgumentParser):
    """argparse's parser, with a group's own answer to an action it does not have, and bad input
    said in one line (argparse prints its usage block first; --help still shows it)."""

    choice_hint: ChoiceHint | None = None

    def error(self, message: str):
        match = _INVALID_CHOICE.match(message)
        if self.choice_hint is not None and match is not None:
            message = self.choice_hint(match["word"]) or message
        self.exit(2, f"{self.prog}: error: {message} (see: {self.prog} --help)\n")


def command(commands: argparse._SubParsersAction, name: str, help_text: str,
            handler: Handler | None = None) -> Parser:
    """A top-level command; a group without a handler of its own gets subcommands via actions()."""
    p = commands.add_parser(name, help=help_text, description=help_text)
    if handler is not None:
        p.set_defaults(handler=handler)
    return p


def actions(group: Parser, hint: ChoiceHint | None = None) -> argparse._SubParsersAction:
    """The group's subcommands, required: `registry default` alone is a usage error, not a guess."""
    group.choice_hint = hint
    return group.add_subparsers(dest="action", required=True, metavar="ACTION")


def action(subcommands: argparse._SubParsersAction, name: str, handler: Handler, help_text: str,
           description: str | None = None) -> Parser:
    p = subcommands.add_parser(name, help=help_text, description=description or help_text)
    p.set_defaults(handler=handler)
    return p


def json_option(p: argparse.ArgumentParser, help_text: str = "print JSON") -> None:
    p.add_argument("--json", action="store_true", help=help_text)


def yes_option(p: argparse.ArgumentParser, help_text: str = "make the change without asking") -> None:
    p.add_argument("--yes", action="store_true", help=help_text)
