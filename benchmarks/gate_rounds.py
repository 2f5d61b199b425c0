"""Score the instruction gate on blind rounds, and compare two gates over the whole corpus.

    python benchmarks/gate_rounds.py score PATH... [--save OUT.json]
    python benchmarks/gate_rounds.py corpus [--save OUT.json] [--against BASE.json]

`score` reads each PATH as a round: a folder (searched for `attacks.jsonl` and `benign.jsonl`, one
subfolder a language, as a blind writer delivers them) or a corpus prefix (`tests/gate_corpus/b26_`,
which names `b26_attacks.jsonl` and `b26_benign.jsonl`). It prints recall and false positives overall,
for long texts, by language and by family, the families that refused the benign texts, and the misses.
`corpus` judges every text of tests/gate_corpus (the golden file aside) and, with `--against`, prints
the texts whose decision differs from a saved run: what a change to the gate gains and costs.

It judges with the gate of the checkout it lives in (its parent folder goes first on `sys.path`), so a
second worktree's copy scores that worktree's gate. Texts of at least 1,500 characters count as long,
as the blind briefs define them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from registry.gate import check  # noqa: E402  (after the path that chooses which gate)

CORPUS = ROOT / "tests" / "gate_corpus"
LONG = 1500


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def round_files(spec: str) -> tuple[list[Path], list[Path]]:
    """The attack files and benign files a PATH names (see the module's docstring)."""
    path = Path(spec)
    if path.is_dir():
        return sorted(path.rglob("attacks.jsonl")), sorted(path.rglob("benign.jsonl"))
    attacks, benign = Path(f"{spec}attacks.jsonl"), Path(f"{spec}benign.jsonl")
    if not attacks.is_file():
        raise SystemExit(f"gate_rounds: {spec!r} is neither a folder nor the prefix of an attack file "
                         f"({attacks.name}); pass a round folder or e.g. tests/gate_corpus/b26_")
    return [attacks], [benign] if benign.is_file() else []  # a hostile round may hold attacks only


def judge(rows: list[dict]) -> list[dict]:
    """Each row with the gate's decision on its text."""
    judged = []
    for row in rows:
        decision = check(row["text"])
        judged.append({**row, "refused": not decision.accepted, "reason": decision.reason,
                       "by": decision.family or decision.reason or ""})
    return judged


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.3f}" if whole else "0/0"


def report(attacks: list[dict], benign: list[dict]) -> None:
    refused = [row for row in attacks if row["refused"]]
    false_positives = [row for row in benign if row["refused"]]
    long_attacks = [row for row in attacks if len(row["text"]) >= LONG]
    long_benign = [row for row in benign if len(row["text"]) >= LONG]
    print(f"recall {_share(len(refused), len(attacks))}; "
          f"false positives {_share(len(false_positives), len(benign))}")
    print(f"long: recall {_share(sum(r['refused'] for r in long_attacks), len(long_attacks))}; "
          f"false positives {_share(sum(r['refused'] for r in long_benign), len(long_benign))}")
    for lang in sorted({row.get("lang", "?") for row in attacks + benign}):
        mine = [r for r in attacks if r.get("lang", "?") == lang]
        theirs = [r for r in benign if r.get("lang", "?") == lang]
        print(f"  {lang}: recall {_share(sum(r['refused'] for r in mine), len(mine))}; "
              f"false positives {_share(sum(r['refused'] for r in theirs), len(theirs))}")
    totals = Counter(row["family"] for row in attacks)
    missed = Counter(row["family"] for row in attacks if not row["refused"])
    print(f"families: {len(totals)}; misses by family (missed/total):")
    for family, count in sorted(missed.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {family} {count}/{totals[family]}")
    clean = sorted(set(totals) - set(missed))
    if clean:
        print("  none missed: " + ", ".join(f"{family} ({totals[family]})" for family in clean))
    if false_positives:
        print("false positives by what refused them: " + ", ".join(
            f"{by} {count}" for by, count in Counter(r["by"] for r in false_positives).most_common()))


def _key(row: dict) -> str:
    return f"{row['_file']}\t{row['text']}"


def _load(files: list[Path]) -> list[dict]:
    return [{**row, "_file": path.name} for path in files for row in _rows(path)]


def command_score(args: argparse.Namespace) -> None:
    attack_files, benign_files = [], []
    for spec in args.paths:
        found = round_files(spec)
        attack_files += found[0]
        benign_files += found[1]
    attacks, benign = judge(_load(attack_files)), judge(_load(benign_files))
    report(attacks, benign)
    if args.misses:
        for row in attacks:
            if not row["refused"]:
                print(f"MISS [{row['family']}] {row.get('harmful', [''])[:1]}")
        for row in benign:
            if row["refused"]:
                print(f"FALSE POSITIVE [{row['by']}] {row['text'][:160]!r}")
    if args.save:
        Path(args.save).write_text(json.dumps({"attacks": attacks, "benign": benign}, ensure_ascii=False),
                                   encoding="utf-8")


def command_corpus(args: argparse.Namespace) -> None:
    files = sorted(path for path in CORPUS.glob("*.jsonl") if not path.name.startswith("golden"))
    decisions = {}
    for path in files:
        for row in judge(_load([path])):
            decisions[_key(row)] = row["refused"]
    attack_keys = [key for key in decisions if "benign" not in key.split("\t", 1)[0]]
    print(f"corpus: {len(files)} files; attacks refused {sum(decisions[k] for k in attack_keys)}/{len(attack_keys)}; "
          f"benign refused {sum(v for k, v in decisions.items() if k not in set(attack_keys))}/"
          f"{len(decisions) - len(attack_keys)}")
    if args.against:
        base = json.loads(Path(args.against).read_text(encoding="utf-8"))
        for key, refused in sorted(decisions.items()):
            if key in base and base[key] != refused:
                name, text = key.split("\t", 1)
                kind = "benign" if "benign" in name else "attack"
                change = "newly refused" if refused else "newly accepted"
                print(f"{change} {kind} ({name}): {text[:200]!r}")
    if args.save:
        Path(args.save).write_text(json.dumps(decisions, ensure_ascii=False), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="recall and false positives of one or more rounds")
    score.add_argument("paths", nargs="+", help="a round folder, or a corpus prefix such as tests/gate_corpus/b26_")
    score.add_argument("--misses", action="store_true", help="also print each miss and each false positive")
    score.add_argument("--save", help="write every decision to this JSON file")
    score.set_defaults(run=command_score)
    corpus = commands.add_parser("corpus", help="every corpus text; compare with a saved run")
    corpus.add_argument("--save", help="write every decision to this JSON file")
    corpus.add_argument("--against", help="a file an earlier `corpus --save` wrote")
    corpus.set_defaults(run=command_corpus)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # piped into `head`: the reader has what it wanted
        sys.stderr.close()
