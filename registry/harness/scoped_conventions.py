"""Directory-scoped conventions, resolved for one directory (seed 002, "Convenções com Escopo de
Diretório"). Pure: the rows come from the registry (registry.conventions), this decides which
apply and in what order.

A convention is registry data in a layer (official, tenant, project) with an optional directory
and an optional language:

    directory "src/api"   applies in src/api and below; "" is the project root (everywhere)
    directory None       a language-level convention: applies wherever its language is asked
    language "python"    applies only when the caller asks for python; None: any language

For a directory, `resolve_conventions` walks as the seed does: the directory's own conventions,
then each parent's up to the project root, then the language-level ones. Within one level the
project's come before the tenant's before the official ones, and a language-specific one before
a language-agnostic one, then by id (oldest first). Duplicates by content (NFC, whitespace
collapsed) keep the nearest. The list, nearest first, is cut to `limit_tokens` at the first
convention that no longer fits (whole conventions, never split).

The layer wants its units in discard order — the farthest first — so `units()` reverses the
kept list: the prompt reads from the general to the specific, and the assembler's budget cut
drops the general ones first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from registry import limits
from registry.assembly import UNIT_SEPARATOR
from registry.errors import InvalidInput
from registry.tokens import Tokenizer

Layer = Literal["official", "tenant", "project"]
_LAYER_RANK = {"project": 0, "tenant": 1, "official": 2}
# Path segments the prompt can carry without becoming a sentence: sql/tables.sql has the same rule.
_SEGMENT = re.compile(r"^[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*$")
_LANGUAGE = re.compile(r"^[a-z0-9][a-z0-9+#._-]*$")
MAX_DIRECTORY = limits.CONVENTION_DIRECTORY
MAX_LANGUAGE = limits.CONVENTION_LANGUAGE


@dataclass(frozen=True)
class Convention:
    id: int
    layer: Layer
    directory: str | None
    language: str | None
    text: str

    @property
    def where(self) -> str:
        """How the prompt names its scope: "src/api/", "project root", "language python"."""
        if self.directory is None:
            return f"language {self.language}"
        place = f"{self.directory}/" if self.directory else "project root"
        return f"{place} ({self.language})" if self.language else place

    def render(self) -> str:
        return f"### {self.where}\n\n{self.text.strip()}"


@dataclass(frozen=True)
class ResolvedConventions:
    directory: str
    language: str | None
    kept: tuple[Convention, ...]        # nearest first
    duplicates: tuple[Convention, ...]  # left out: the same text applies nearer
    over_limit: tuple[Convention, ...]  # left out: past limit_tokens
    tokens: int
    refused: tuple[Convention, ...] = ()  # left out: the gate refuses their stored text

    def units(self) -> tuple[str, ...]:
        """The assembler's conventions layer, in discard order (farthest first)."""
        return tuple(convention.render() for convention in reversed(self.kept))


def normalise_directory(path: str | None) -> str:
    """A directory relative to the project root in POSIX form: '' for the root ('.', '/', './'
    too); './src/api/' → 'src/api'; Windows separators become '/'. Refused: '..', absolute
    paths, drive letters, and segments other than letters, digits and _ . @ + -."""
    if path is None:
        return ""
    if not isinstance(path, str):
        raise InvalidInput(f"a directory is text, got {type(path).__name__}")
    cleaned = path.replace("\\", "/").strip()
    if re.match(r"^[A-Za-z]:", cleaned):
        raise InvalidInput(f"directory {path!r}: give it relative to the project root, without a drive")
    cleaned = cleaned.lstrip("/") if cleaned in {"/", ""} else cleaned
    if cleaned.startswith("/"):
        raise InvalidInput(f"directory {path!r}: give it relative to the project root (e.g. src/api), not absolute")
    segments = [segment for segment in cleaned.split("/") if segment not in {"", "."}]
    for segment in segments:
        if segment == "..":
            raise InvalidInput(f"directory {path!r}: '..' leaves the project; give a path inside it")
        if not _SEGMENT.match(segment):
            raise InvalidInput(f"directory {path!r}: segment {segment!r} may hold only letters, digits and _ . @ + - "
                               "(and not start with '.')")
    normalised = "/".join(segments)
    if len(normalised) > MAX_DIRECTORY:
        raise InvalidInput(f"directory {path!r} is longer than {MAX_DIRECTORY} characters")
    return normalised


def normalise_language(language: str | None) -> str | None:
    """A language as conventions name it: lowercase, e.g. python, typescript, c++, c#; None: any."""
    if language is None:
        return None
    if not isinstance(language, str):
        raise InvalidInput(f"a language is text, got {type(language).__name__}")
    lowered = language.strip().lower()
    if not lowered:
        return None
    if len(lowered) > MAX_LANGUAGE or not _LANGUAGE.match(lowered):
        raise InvalidInput(f"language {language!r}: lowercase letters, digits and + # . _ - (at most {MAX_LANGUAGE}), "
                           "e.g. python, typescript, c++")
    return lowered


def directory_levels(directory: str) -> tuple[str, ...]:
    """The directory, then each parent, up to the root '': "src/api" → ("src/api", "src", "")."""
    levels = [directory]
    while directory:
        directory = directory.rpartition("/")[0]
        levels.append(directory)
    return tuple(levels)


def _content_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def resolve_conventions(conventions: Iterable[Convention], directory: str | None, language: str | None, *,
                        limit_tokens: int, tokenizer: Tokenizer) -> ResolvedConventions:
    """The conventions that apply in `directory` for `language`, nearest first, deduplicated and
    cut to `limit_tokens` (the rendered units, joined as the layer joins them)."""
    if isinstance(limit_tokens, bool) or not isinstance(limit_tokens, int) or limit_tokens < 0:
        raise InvalidInput(f"limit_tokens must be a whole number ≥ 0, got {limit_tokens!r}")
    directory = normalise_directory(directory)
    language = normalise_language(language)
    levels = directory_levels(directory)
    rank = {level: index for index, level in enumerate(levels)}
    rank[None] = len(levels)  # language-level ones come after the root

    def applies(c: Convention) -> bool:
        return c.directory in rank and (c.language is None or c.language == language) \
            and (c.directory is not None or c.language is not None)

    ordered = sorted((c for c in conventions if applies(c)),
                     key=lambda c: (rank[c.directory], _LAYER_RANK[c.layer], c.language is None, c.id))
    kept: list[Convention] = []
    duplicates: list[Convention] = []
    over: list[Convention] = []
    seen: set[str] = set()
    units: list[str] = []
    for convention in ordered:
        key = _content_key(convention.text)
        if not key or key in seen:
            duplicates.append(convention)
            continue
        seen.add(key)
        if over or tokenizer.count(UNIT_SEPARATOR.join([*units, convention.render()])) > limit_tokens:
            over.append(convention)  # the first that does not fit ends the list
            continue
        kept.append(convention)
        units.append(convention.render())
    tokens = tokenizer.count(UNIT_SEPARATOR.join(units)) if units else 0
    return ResolvedConventions(directory, language, tuple(kept), tuple(duplicates), tuple(over), tokens)
