"""Pre-hydration: the references a task names, fetched before the model starts (seed 002, "Motor de
Pre-Hydration").

    context = hydrate("Corrija ./src/caixa.py, ver #42", PreHydrationConfig(), workspace=Path("~/src/acme"))
    context.text       # the layer's body: one "### file src/caixa.py" unit per kept reference
    context.outcomes   # per reference: resolved, failed (why), pruned, skipped

Four steps, as the seed lists them:

1. Extract — registry.harness.references: URLs, paths, #issues, PR #n, custom patterns.
2. Resolve — each kind through its resolver, in parallel threads, all within `timeout` seconds,
   at most `max_references` of them (the first ones in the task). A file is read by
   `WorkspaceFiles`, and only from inside the workspace: a path that leads outside it (absolute,
   `~`, `..`, a symlink, a Windows drive) is refused. Every other kind needs a resolver the caller
   registers: nothing reaches the network by default.
3. Prune — in order of appearance, each reference whole while the running total fits
   `max_context_tokens` (counted by the project's tokenizer, registry.tokens); the one that
   overflows is cut with the truncation marker if at least `MIN_PIECE_TOKENS` of it fit, and
   dropped otherwise; later ones are still taken whole if they fit.
4. Deliver — each kept unit passes the instruction gate like any customer text that reaches the
   prompt (a refused one is reported failed, its room left unused), and the units become the
   assembler's `pre_hydrated_context` layer, under the line `[PRE_HYDRATED_CONTEXT]`.

A resolver thread that outlives the timeout is abandoned, not killed (Python cannot kill a
thread): a resolver that can hang should carry its own timeout too.
"""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType

from registry.assembly import UNIT_SEPARATOR, truncate_text
from registry.errors import InvalidInput
from registry.gate import MAX_INSTRUCTIONS_CHARS, InstructionsRejected, validate_instructions
from registry.harness.references import Reference, ReferencePattern, extract_references
from registry.tokens import Tokenizer, get_tokenizer

MIN_PIECE_TOKENS = 32
MAX_FILE_BYTES = 256 * 1024
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")

Resolver = Callable[[Reference], str]


class ResolutionFailed(Exception):
    """Raised by a resolver that could not resolve a reference; the message says why."""


class Status(StrEnum):
    RESOLVED = "resolved"
    FAILED = "failed"
    PRUNED = "pruned"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class WorkspaceFiles:
    """Reads a file reference from inside `root`, and nothing outside it. At most
    MAX_FILE_BYTES are read (pruning keeps far less); the file must be UTF-8 text."""

    root: Path
    max_bytes: int = MAX_FILE_BYTES

    def __call__(self, reference: Reference) -> str:
        target = reference.target
        outside = ResolutionFailed(f"{target} is outside the workspace: only files inside it are read")
        if _WINDOWS_DRIVE.match(target):
            raise outside
        root = Path(self.root).resolve(strict=True)
        path = (root / Path(target).expanduser()).resolve()  # an absolute target replaces root; symlinks followed
        if not path.is_relative_to(root):
            raise outside
        if not path.exists():
            raise ResolutionFailed(f"no file {target} in the workspace")
        if not path.is_file():
            raise ResolutionFailed(f"{target} is not a regular file")
        with path.open("rb") as handle:
            data = handle.read(self.max_bytes)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            if error.start >= len(data) - 3 and len(data) == self.max_bytes:
                return data[:error.start].decode("utf-8")  # the read stopped inside a character
            raise ResolutionFailed(f"{target} is not UTF-8 text (byte {error.start})") from None


@dataclass(frozen=True)
class PreHydrationConfig:
    """The seed's configuration. `resolvers` maps a kind ("url", "issue", "jira", …) to a
    callable returning the reference's text or raising ResolutionFailed; a "file" resolver given
    here replaces the workspace reader."""

    custom_patterns: Sequence[ReferencePattern] = ()
    resolvers: Mapping[str, Resolver] = field(default_factory=lambda: MappingProxyType({}))
    timeout: float = 15.0
    max_references: int = 10
    max_context_tokens: int = 4_000

    def __post_init__(self) -> None:
        object.__setattr__(self, "custom_patterns", tuple(self.custom_patterns))
        object.__setattr__(self, "resolvers", MappingProxyType(dict(self.resolvers)))
        for kind, resolver in self.resolvers.items():
            if not callable(resolver):
                raise InvalidInput(f"the resolver of {kind!r} must be callable, got {type(resolver).__name__}")
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) or not self.timeout > 0:
            raise InvalidInput(f"timeout must be a number of seconds > 0, got {self.timeout!r}")
        for name in ("max_references", "max_context_tokens"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(f"{name} must be a whole number ≥ 0, got {value!r}")


@dataclass(frozen=True)
class ReferenceOutcome:
    reference: Reference
    status: Status
    reason: str = ""
    tokens: int = 0  # what it takes in the layer


@dataclass(frozen=True)
class HydratedContext:
    outcomes: tuple[ReferenceOutcome, ...]
    units: tuple[str, ...]
    tokens: int
    estimated: bool

    @property
    def text(self) -> str:
        return UNIT_SEPARATOR.join(self.units)

    def count(self, status: Status) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)


def hydrate(task: str, config: PreHydrationConfig | None = None, *, workspace: Path | None = None,
            tokenizer: Tokenizer | None = None) -> HydratedContext:
    """Extract, resolve, prune and gate the references of `task` (see the module's docstring)."""
    config = config or PreHydrationConfig()
    tokenizer = tokenizer or get_tokenizer()
    references = extract_references(task, config.custom_patterns)
    chosen, beyond = references[:config.max_references], references[config.max_references:]
    resolvers = dict(config.resolvers)
    if workspace is not None:
        resolvers.setdefault("file", WorkspaceFiles(workspace))
    texts, failures = _resolve(chosen, resolvers, config.timeout)
    outcomes: dict[Reference, ReferenceOutcome] = {
        reference: ReferenceOutcome(reference, Status.FAILED, reason) for reference, reason in failures.items()}
    outcomes |= {reference: ReferenceOutcome(reference, Status.SKIPPED,
                                             f"beyond max_references ({config.max_references})")
                 for reference in beyond}
    units: list[str] = []
    for reference in chosen:
        if reference not in texts:
            continue
        unit, outcome = _prune(reference, texts[reference], units, config.max_context_tokens, tokenizer)
        if unit:
            try:
                unit = _gate(unit)
            except InstructionsRejected as rejected:
                outcome = ReferenceOutcome(reference, Status.FAILED,
                                           f"refused by the instruction gate ({rejected.reason}: {rejected.excerpt!r})")
                unit = ""
        if unit:
            units.append(unit)
        outcomes[reference] = outcome
    text = UNIT_SEPARATOR.join(units)
    return HydratedContext(tuple(outcomes[reference] for reference in references), tuple(units),
                           tokenizer.count(text) if text else 0, not tokenizer.exact)


def _resolve(references: Sequence[Reference], resolvers: Mapping[str, Resolver],
             timeout: float) -> tuple[dict[Reference, str], dict[Reference, str]]:
    texts: dict[Reference, str] = {}
    failures: dict[Reference, str] = {}
    runnable = []
    for reference in references:
        if reference.kind in resolvers:
            runnable.append(reference)
        else:
            failures[reference] = (f"no resolver for {reference.kind!r}: nothing is fetched unless a resolver "
                                   "for its kind is registered" + (" (files: give a workspace)"
                                                                    if reference.kind == "file" else ""))
    if not runnable:
        return texts, failures
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=min(8, len(runnable)),
                                                     thread_name_prefix="prehydrate")
    try:
        futures = {executor.submit(resolvers[reference.kind], reference): reference for reference in runnable}
        done, _ = concurrent.futures.wait(futures, timeout=timeout)
        for future, reference in futures.items():
            if future not in done:
                failures[reference] = f"timed out after {timeout:g} s"
                continue
            error = future.exception()
            if isinstance(error, ResolutionFailed):
                failures[reference] = str(error)
            elif error is not None:
                failures[reference] = f"resolver raised {type(error).__name__}: {error}"
            elif not isinstance(future.result(), str):
                failures[reference] = f"resolver returned {type(future.result()).__name__}, not text"
            elif not future.result().strip():
                failures[reference] = "resolved to an empty text"
            else:
                texts[reference] = future.result()
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    return texts, failures


def _render(reference: Reference, content: str) -> str:
    return f"### {reference.label}\n\n{content.strip()}"


def _prune(reference: Reference, content: str, kept: list[str], budget: int,
           tokenizer: Tokenizer) -> tuple[str, ReferenceOutcome]:
    """The reference's unit as it fits after `kept` (whole, cut, or "") and its outcome."""
    def total(unit: str) -> int:
        return tokenizer.count(UNIT_SEPARATOR.join([*kept, unit]))

    whole = _render(reference, content)
    if total(whole) <= budget:
        return whole, ReferenceOutcome(reference, Status.RESOLVED, tokens=tokenizer.count(whole))
    needed = tokenizer.count(whole)
    head = _render(reference, "")
    room = budget - total(head)
    # BPE may merge across the joins, so the cut is re-checked and tightened until it fits.
    while room >= MIN_PIECE_TOKENS:
        piece = truncate_text(content.strip(), room, tokenizer)
        unit = _render(reference, piece) if piece else ""
        if unit and total(unit) <= budget:
            tokens = tokenizer.count(unit)
            return unit, ReferenceOutcome(reference, Status.PRUNED, f"cut to {tokens} of {needed} tokens", tokens)
        room -= max(1, total(unit) - budget) if unit else room
    left = max(0, budget - (tokenizer.count(UNIT_SEPARATOR.join(kept)) if kept else 0))
    return "", ReferenceOutcome(reference, Status.PRUNED,
                                f"no room: {needed} tokens needed, {left} of max_context_tokens {budget} left")


def _gate(unit: str) -> str:
    """The unit through the instruction gate, in pieces the gate's length cap allows (split at
    line ends); returns the unit as the gate normalises it (LF, NFC)."""
    pieces, current = [], ""
    for line in unit.splitlines(keepends=True):
        while len(line) > MAX_INSTRUCTIONS_CHARS:  # one huge line: hard-split
            pieces.append(current + line[:MAX_INSTRUCTIONS_CHARS - len(current)])
            line, current = line[MAX_INSTRUCTIONS_CHARS - len(current):], ""
        if len(current) + len(line) > MAX_INSTRUCTIONS_CHARS:
            pieces.append(current)
            current = ""
        current += line
    pieces.append(current)
    return "".join(validate_instructions(piece) if piece.strip() else piece for piece in pieces)


def describe(context: HydratedContext) -> str:
    """One line of totals, then one line per reference: the explain view's pre-hydration part."""
    mark = "~" if context.estimated else ""
    lines = [f"Pre-hydration: {len(context.outcomes)} reference(s) found, {context.count(Status.RESOLVED)} resolved, "
             f"{context.count(Status.PRUNED)} pruned, {context.count(Status.FAILED)} failed, "
             f"{context.count(Status.SKIPPED)} skipped; {mark}{context.tokens} tokens"]
    for outcome in context.outcomes:
        tokens = f"{mark}{outcome.tokens}" if outcome.tokens else "-"
        lines.append(f"  {outcome.status:<9} {outcome.reference.kind:<6} {outcome.reference.target:<40} "
                     f"{tokens:>6}  {outcome.reason}".rstrip())
    return "\n".join(lines) + "\n"
