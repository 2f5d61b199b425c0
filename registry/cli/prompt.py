"""`registry prompt --conversation ID`: a conversation's system prompt, built in one transaction.

Plain: the product's rules, then the framed agent. With --explain, --workspace, --budget, --task,
--dir or --hooks: assembled by layers (product rules, agent, instruction files, project context,
conventions, pre-hydrated context, task state) within budgets — a budget is never taken and then
ignored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from registry.errors import InvalidInput
from registry.models import trace_attributes
from registry.paths import SEEDS_DIR
from registry.refs import ascii_int, is_ascii_id
from registry.render import describe_conversation
from registry.text_files import TextFileError, TextFileMissing, read_text_file

from .parsing import command, json_option
from .session import run

PRODUCT_RULES_FILE = SEEDS_DIR / "product_rules.md"


def cmd_prompt(args: argparse.Namespace) -> None:
    rules = read_text_file(args.rules if args.rules is not None else PRODUCT_RULES_FILE, "--rules")
    if (args.explain or args.workspace is not None or args.budget or args.task is not None or args.dir is not None
            or args.language is not None or args.hooks is not None):
        _assembled(args, rules)
        return
    from registry.frame import frame_system_prompt

    resolved, agent = run(args, lambda r: r.conversation_with_agent(args.conversation))
    framed = frame_system_prompt(rules, agent)
    if args.adopt and framed.agent_slug is not None:
        run(args, lambda r: r.adopt(args.conversation, framed.fingerprint))
    # What a service attaches to its traces: the agent framed (none when refused) and this prompt.
    attributes = (trace_attributes(agent.slug, agent.version, agent.layer, framed.fingerprint)
                  if agent is not None and framed.agent_slug is not None else {})
    if args.json:
        print(json.dumps({"conversation": resolved.model_dump(mode="json"), "text": framed.text,
                          "tokens": dict(framed.tokens), "fingerprint": framed.fingerprint,
                          "trace_attributes": attributes,
                          "refusal": _refusal_json(framed.refusal)}, ensure_ascii=False, indent=2))
        return
    print(framed.text, end="")
    print("-" * 72)
    print(describe_conversation(resolved))
    _print_refusal(resolved, framed.refusal)
    counts = ", ".join(f"{part} {n}" for part, n in framed.tokens.items())
    print(f"Tokens: {counts}")
    print(f"Fingerprint: sha256:{framed.fingerprint}")


def _assembled(args: argparse.Namespace, rules: str) -> None:
    """The prompt by layers (product rules, agent, instruction files, project context, conventions,
    pre-hydrated context, task state)."""
    from registry.assembly import explain
    from registry.harness.prehydration import describe
    from registry.prompting import conversation_prompt

    budgets = dict(_budget(b) for b in args.budget or [])
    if args.language is not None and args.dir is None:
        raise InvalidInput("--language chooses among the conventions of a working directory: give --dir too "
                           "(--dir . for the project root)")
    workspace = _workspace(args.workspace)
    hooks = load_hooks(args.hooks) if args.hooks is not None else None
    built = run(args, lambda r: conversation_prompt(r, args.conversation, rules, workspace=workspace,
                                                    budgets=budgets, hooks=hooks, task=args.task,
                                                    directory=_directory(args.dir, workspace),
                                                    language=args.language))
    assembled = built.assembled
    if args.adopt and built.conversation.agent_id is not None and built.refusal is None:
        # The fingerprint recorded is that of the prompt as assembled here, what the service sent.
        run(args, lambda r: r.adopt(args.conversation, assembled.fingerprint))
    if args.json:
        print(json.dumps({"conversation": built.conversation.model_dump(mode="json"), "text": assembled.text,
                          "layers": [vars(r) | {"strategy": str(r.strategy)} for r in assembled.layers],
                          "tokens_total": assembled.tokens_total, "estimated": assembled.estimated,
                          "fingerprint": assembled.fingerprint, "refusal": _refusal_json(built.refusal),
                          "pre_hydration": _hydration_json(built.hydration),
                          "conventions": _conventions_json(built.conventions),
                          "refused_instruction_files": [{"label": label, **_refusal_json(rejected)}
                                                        for label, rejected in built.refused_files]},
                         ensure_ascii=False, indent=2))
        return
    if args.explain:
        if built.hydration is not None:
            print(describe(built.hydration))
        if built.conventions is not None:
            print(_describe_conventions(built.conventions))
    print(explain(assembled) if args.explain else assembled.text, end="" if not args.explain else "\n")
    _print_refusal(built.conversation, built.refusal)
    from registry.instruction_files import one_line

    for label, rejected in built.refused_files:
        # The label is a path, which may hold line breaks or escape sequences: printed on one line.
        print(f"warning: instruction file {one_line(label)} was refused by the gate ({rejected.reason}: "
              f"{rejected.excerpt!r}) "
              f"and left out of the prompt", file=sys.stderr)


def load_hooks(spec: str):
    """--hooks MODULE:NAME: a registry.harness.hooks.Hooks value importable from Python's path."""
    import importlib

    from registry.harness.hooks import Hooks

    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise InvalidInput(f"--hooks takes MODULE:NAME, e.g. mycompany.hooks:HOOKS (got {spec!r})")
    try:
        value = getattr(importlib.import_module(module_name), name)
    except ImportError as error:
        raise InvalidInput(f"--hooks {spec}: cannot import {module_name!r} ({error})") from error
    except AttributeError:
        raise InvalidInput(f"--hooks {spec}: module {module_name!r} has no {name!r}") from None
    if not isinstance(value, Hooks):
        raise InvalidInput(f"--hooks {spec}: {name!r} is a {type(value).__name__}, not a registry.harness.hooks.Hooks")
    return value


def _directory(value: str | None, workspace: Path | None) -> str | None:
    """--dir relative to the project root; an absolute path inside --workspace is made relative to it."""
    if value is None or not Path(value).is_absolute():
        return value
    if workspace is None or not Path(value).resolve().is_relative_to(workspace.resolve()):
        raise InvalidInput(f"--dir {value}: give it relative to the project root (or inside --workspace)")
    return Path(value).resolve().relative_to(workspace.resolve()).as_posix()


def _describe_conventions(resolved) -> str:
    where = resolved.directory or "the project root"
    line = (f"Conventions for {where}" + (f" ({resolved.language})" if resolved.language else "")
            + f": {len(resolved.kept)} kept, {len(resolved.duplicates)} duplicate(s), "
            f"{len(resolved.over_limit)} past the limit, {len(resolved.refused)} refused by the gate; "
            f"{resolved.tokens} tokens")
    return line + "\n"


def _hydration_json(hydration) -> dict | None:
    if hydration is None:
        return None
    return {"tokens": hydration.tokens, "references": [
        {"kind": o.reference.kind, "text": o.reference.text, "target": o.reference.target, "status": str(o.status),
         "reason": o.reason, "tokens": o.tokens} for o in hydration.outcomes]}


def _conventions_json(resolved) -> dict | None:
    if resolved is None:
        return None
    return {"directory": resolved.directory, "language": resolved.language, "tokens": resolved.tokens,
            "kept": [c.id for c in resolved.kept], "duplicates": [c.id for c in resolved.duplicates],
            "over_limit": [c.id for c in resolved.over_limit], "refused": [c.id for c in resolved.refused]}


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
    from registry.assembly import DEFAULT_LAYERS

    name, _, value = text.partition("=")
    if not is_ascii_id(value):
        raise InvalidInput(f"--budget takes LAYER=TOKENS, e.g. instruction_files=500 (got {text!r})")
    layers = [spec.name for spec in DEFAULT_LAYERS]
    if name not in layers:
        raise InvalidInput(f"--budget: no layer {name!r}; the layers are {', '.join(layers)}")
    return name, int(value)


def _print_refusal(resolved, refusal) -> None:
    if refusal is not None:
        print(f"NOT FRAMED: agent {resolved.slug!r} fails the instruction gate "
              f"({refusal.reason}: {refusal.excerpt!r}); the prompt holds the product's rules only")


def _refusal_json(refusal) -> dict | None:
    return None if refusal is None else {"reason": refusal.reason, "excerpt": refusal.excerpt, "message": str(refusal)}


def register(commands: argparse._SubParsersAction) -> None:
    p = command(commands, "prompt", "the system prompt of a conversation: product rules, then its framed agent",
                cmd_prompt)
    p.add_argument("--conversation", type=ascii_int, required=True, help="conversation id")
    p.add_argument("--rules", help="product rules file, UTF-8 "
                   f"(default: {PRODUCT_RULES_FILE.relative_to(SEEDS_DIR.parent)})")
    p.add_argument("--explain", action="store_true", help="assemble by layers and show each layer's tokens, "
                   "budget and cut, then the prompt")
    p.add_argument("--workspace", help="a workspace whose AGENTS.md files join the instruction files layer")
    p.add_argument("--budget", action="append", metavar="LAYER=TOKENS", help="override a layer's token budget "
                   "(repeatable), e.g. --budget instruction_files=500")
    p.add_argument("--task", help="the task's text: its references (files in --workspace; nothing from the "
                   "network) become the pre-hydrated context layer")
    p.add_argument("--dir", help="working directory, relative to the project root: its conventions (and its "
                   "parents', and the language's) join the prompt")
    p.add_argument("--language", help="the language of the work (e.g. python), for language-scoped conventions")
    p.add_argument("--hooks", metavar="MODULE:NAME", help="a registry.harness.hooks.Hooks value to run around the "
                   "assembly (before_assembly, after_assembly)")
    p.add_argument("--adopt", action="store_true", help="record that the conversation adopted its agent, with "
                   "this prompt's fingerprint (what a service does when it answers)")
    json_option(p)
