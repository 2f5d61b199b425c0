"""Instruction files: AGENTS.md across a workspace, plus one per project kept in the database.

Precedence is declared, not implied by reading order: database > deeper directory > root. The
files are returned in *increasing* precedence — the least authoritative first — which is both
"last wins" for a reader resolving a conflict and the discard order of the assembler's
drop_whole_units cut (the root file is dropped first, the database file last).

Discovery skips `.git`, `node_modules` and `.venv` always (vendored or tool trees are never the
project's instructions), does not follow symlinked directories, refuses AGENTS.md symlinks that
lead outside the workspace, and skips what the root `.gitignore` ignores, with this subset of its
syntax: blank lines and `#` comments; a trailing `/` matches directories only; a pattern with a
`/` at its start or middle is anchored at the root and matched against the relative path; any
other pattern (or one led by `**/`) is matched against each name; `*`, `?`, `[...]` as in fnmatch (so `**` behaves
like `*`, which also crosses `/`). Negations (`!pattern`), nested `.gitignore` files and
escapes are not supported: a negated line is ignored, so a re-included directory stays skipped.

Reading happens in the caller's process; InstructionFilesCache only keeps the results.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Literal

from registry.errors import InvalidInput

AGENTS_FILE = "AGENTS.md"
ALWAYS_SKIPPED = frozenset({".git", "node_modules", ".venv"})


@dataclass(frozen=True)
class InstructionFile:
    """One instruction file. `label` is the path relative to the workspace root (POSIX form, so
    the prompt's bytes do not depend on the machine) or "project <id> (database)"; `depth` is the
    number of directories below the root, None for the database file."""

    source: Literal["workspace", "database"]
    label: str
    depth: int | None
    text: str

    def render(self) -> str:
        """The file as a unit of the assembler's instruction_files layer."""
        return f"### {self.label}\n\n{self.text}"


@dataclass(frozen=True)
class GitignoreRule:
    pattern: str
    directory_only: bool
    anchored: bool

    def matches(self, relative: PurePosixPath, is_directory: bool) -> bool:
        if self.directory_only and not is_directory:
            return False
        if self.anchored:
            return fnmatchcase(relative.as_posix(), self.pattern)
        return fnmatchcase(relative.name, self.pattern)


def parse_gitignore(text: str) -> tuple[GitignoreRule, ...]:
    rules = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        directory_only = line.endswith("/")
        pattern = line.rstrip("/").removeprefix("**/")
        anchored = "/" in pattern
        pattern = pattern.lstrip("/")
        if pattern:
            rules.append(GitignoreRule(pattern, directory_only, anchored))
    return tuple(rules)


def discover_agents_files(root: Path) -> list[Path]:
    """AGENTS.md paths relative to `root`, in increasing precedence: the root's first, then
    shallower before deeper, siblings at the same depth by path (code-point order)."""
    root = root.resolve()
    gitignore = root / ".gitignore"
    rules = parse_gitignore(gitignore.read_text(encoding="utf-8", errors="replace")) if gitignore.is_file() else ()
    found = [path for path in _walk(root, rules) if (root / path).is_file() and _inside(root, root / path)]
    return sorted(found, key=lambda path: (len(path.parts), path.parts))


def _walk(root: Path, rules: tuple[GitignoreRule, ...]) -> Iterator[Path]:
    for directory, subdirectories, files in os.walk(root):
        relative_directory = Path(directory).relative_to(root)
        # Pruning in place stops os.walk from descending; sorting keeps the walk reproducible.
        subdirectories[:] = sorted(
            name for name in subdirectories
            if name not in ALWAYS_SKIPPED and not _ignored(rules, relative_directory / name, True)
        )
        if AGENTS_FILE in files and not _ignored(rules, relative_directory / AGENTS_FILE, False):
            yield relative_directory / AGENTS_FILE


def _ignored(rules: tuple[GitignoreRule, ...], relative: Path, is_directory: bool) -> bool:
    posix = PurePosixPath(relative.as_posix())
    return any(rule.matches(posix, is_directory) for rule in rules)


def _inside(root: Path, path: Path) -> bool:
    return path.resolve().is_relative_to(root)


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace("\r\n", "\n").strip()


def load_instruction_files(root: Path | None, *, project_id: int | None = None,
                           database_text: str | None = None) -> tuple[InstructionFile, ...]:
    """The workspace's AGENTS.md files (none when `root` is None) then the project's database
    file, in increasing precedence. Empty files are left out: they would cost nothing anyway."""
    files = []
    for relative in discover_agents_files(root) if root is not None else []:
        files.append(InstructionFile("workspace", relative.as_posix(), len(relative.parts) - 1,
                                     _read(root / relative)))
    if database_text is not None:
        label = f"project {project_id} (database)" if project_id is not None else "project (database)"
        files.append(InstructionFile("database", label, None, _normalise(database_text)))
    return tuple(file for file in files if file.text)


def _read(path: Path) -> str:
    try:
        return _normalise(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise InvalidInput(f"Instruction file {path} is not UTF-8 (byte {error.start}): save it as UTF-8.") from None


def instruction_units(files: tuple[InstructionFile, ...]) -> tuple[str, ...]:
    """The files as the assembler's instruction_files units, keeping their precedence order."""
    return tuple(file.render() for file in files)


CacheKey = tuple[Path | None, int | None]


class InstructionFilesCache:
    """Loaded instruction files by (workspace root, project id), kept until invalidated.

    There is no filesystem watch: whoever writes an AGENTS.md or the project's database file
    calls `invalidate`. Loading runs outside the lock, in the caller; two concurrent misses
    for one key both load and store the same result, which is harmless.
    """

    def __init__(self) -> None:
        self._entries: dict[CacheKey, tuple[InstructionFile, ...]] = {}
        self._lock = threading.Lock()

    def load(self, root: Path | None, project_id: int | None,
             read_database_text: Callable[[], str | None] = lambda: None) -> tuple[InstructionFile, ...]:
        key = (root.resolve() if root is not None else None, project_id)
        with self._lock:
            if key in self._entries:
                return self._entries[key]
        files = load_instruction_files(key[0], project_id=project_id, database_text=read_database_text())
        with self._lock:
            self._entries[key] = files
        return files

    def invalidate(self, root: Path | None = None, project_id: int | None = None) -> None:
        """Forget entries for this root and/or project; with neither, forget everything."""
        resolved = root.resolve() if root is not None else None
        with self._lock:
            for key in list(self._entries):
                if (resolved is None or key[0] == resolved) and (project_id is None or key[1] == project_id):
                    del self._entries[key]
