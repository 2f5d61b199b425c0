"""`registry gate check FILE|-`: the instruction gate's decision on a text, explained (docs/gate.md).

Prints the decision, the family, the reason and the excerpt (or JSON with --json) on stdout. Exit
status: 0 accepted, 1 refused (and one line on stderr saying so), 4 the file does not exist,
1 for a file that cannot be read as UTF-8 text. No database is needed.
"""

from __future__ import annotations

import argparse
import json
import sys

from registry import limits
from registry.errors import RegistryError
from registry.text_files import decode_text, read_text_file

from .parsing import action, actions, command, json_option

# One-line customer fields and their limits, as the write path checks them.
FIELDS = {"instructions": None, "name": limits.AGENT_NAME, "description": limits.AGENT_DESCRIPTION,
          "when_to_use": limits.AGENT_WHEN_TO_USE}


class Refused(RegistryError):
    """The text was refused: the decision is on stdout, this line on stderr."""

    exit_code = 1


def _read(source: str) -> str:
    """The text to judge, read by the rule every command uses (registry.text_files), except that
    the final newline is kept: the gate judges exactly what it is given."""
    if source == "-":
        return decode_text(sys.stdin.buffer.read(), "standard input")
    return read_text_file(source, "gate check:", keep_final_newline=True)


def cmd_check(args: argparse.Namespace) -> None:
    from registry.gate import check

    text = _read(args.file)
    decision = check(text, field=args.field, max_length=FIELDS[args.field])
    if args.json:
        print(json.dumps({
            "decision": "accepted" if decision.accepted else "refused",
            "field": args.field,
            "reason": decision.reason,
            "family": decision.family,
            "family_title": decision.family_title or None,
            "excerpt": decision.excerpt or None,
            "offset": None if decision.accepted else decision.offset,
            "message": decision.message or None,
            "overruled": [{"family": o.family, "excerpt": o.excerpt, "offset": o.offset,
                           "window_score": o.window_score, "local_score": o.local_score}
                          for o in decision.overruled],
        }, ensure_ascii=False, indent=2))
    elif decision.accepted:
        print("decision: accepted")
        for o in decision.overruled:
            # A reviewer auditing an acceptance sees what a rule matched and why it did not refuse.
            print(f"overruled: {o.family} matched \"{o.excerpt}\" (at character {o.offset}); the statistical "
                  f"check read it as ordinary posture text (window {o.window_score:.1f}, words around it "
                  f"{o.local_score:.1f}), so it did not refuse")
    else:
        print("decision: refused")
        print(f"reason:   {decision.reason}")
        if decision.family:
            print(f"family:   {decision.family} — the text {decision.family_title}")
        if decision.excerpt:
            print(f"excerpt:  \"{decision.excerpt}\" (at character {decision.offset})")
        print(f"message:  {decision.message}")
    if not decision.accepted:
        raise Refused(f"gate check: refused ({decision.reason}{', ' + decision.family if decision.family else ''})")


def register(commands: argparse._SubParsersAction) -> None:
    sub = actions(command(commands, "gate", "the instruction gate: check a text and explain the decision "
                          "(docs/gate.md)"))
    c = action(sub, "check", cmd_check, "judge a posture text from FILE or - (standard input)",
               description="Judge a posture text as the write path would: print the decision, the family, "
               "the reason and the excerpt. Exit 0 accepted, 1 refused.")
    c.add_argument("file", metavar="FILE", help="a UTF-8 text file, or - for standard input")
    c.add_argument("--field", choices=sorted(FIELDS), default="instructions",
                   help="judge it as this field (one-line fields refuse line breaks; default: instructions)")
    json_option(c)
