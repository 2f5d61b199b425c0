"""The project's documentation stands on its own: every relative link in README.md and docs/
resolves inside the repository (to a file, and to a heading when it names one), and nothing in
the repository points outside it to ../shared or to the origin DESIGN.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([REPOSITORY / "README.md", *(REPOSITORY / "docs").rglob("*.md")])

# [text](target) and [text]: target, outside code spans and fences.
INLINE_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, …
SHARED_FOLDER = re.compile(r"\.\./shared\b")
OUTSIDE_REFERENCE = re.compile(r"\bDESIGN\.md\b|\bDESIGN §")


def links(text: str) -> list[str]:
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return INLINE_LINK.findall(prose) + REFERENCE_LINK.findall(prose)


def heading_anchors(path: Path) -> set[str]:
    """GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", path.read_text(encoding="utf-8")),
                              re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        anchor, n = slug, 1
        while anchor in anchors:
            anchor, n = f"{slug}-{n}", n + 1
        anchors.add(anchor)
    return anchors


def broken_links(document: Path) -> list[str]:
    broken = []
    for target in links(document.read_text(encoding="utf-8")):
        if EXTERNAL.match(target):
            continue
        file_part, _, anchor = unquote(target).partition("#")
        resolved = (document.parent / file_part).resolve() if file_part else document
        if not resolved.is_relative_to(REPOSITORY):
            broken.append(f"{target}: outside the repository")
        elif not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in heading_anchors(resolved):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_every_relative_link_resolves_inside_the_repository(document: Path):
    assert broken_links(document) == []


def test_the_checker_sees_broken_links(tmp_path: Path):
    assert links("[a](x.md) `[b](y.md)` [c](https://e.org) [d](#top)\n```\n[e](z.md)\n```\n[f]: g.md") == [
        "x.md", "https://e.org", "#top", "g.md"]
    assert heading_anchors(REPOSITORY / "docs" / "design.md") >= {"product", "resolution-rules", "the-frame"}


# Citations of the origin's sections in files whose owners are moving them to docs/design.md. An
# entry may go away; no new file may join. (The origin is ../shared/DESIGN.md: never cite it.)
NOT_YET_MOVED: set[str] = set()


def repository_files() -> list[Path]:
    """Tracked files and new ones not ignored (git), else every file but tool folders."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPOSITORY,
                            capture_output=True, check=False)
    if listed.returncode == 0:
        return [REPOSITORY / name for name in listed.stdout.decode().split("\0") if name]
    skipped = {".git", ".venv", "build", "__pycache__"}
    return [p for p in REPOSITORY.rglob("*") if p.is_file() and not skipped & set(p.relative_to(REPOSITORY).parts)]


def test_nothing_points_outside_the_repository_for_the_design():
    offenders = []
    for path in repository_files():
        name = path.relative_to(REPOSITORY).as_posix()
        if name == "tests/test_docs_links.py" or name.startswith("docs/seeds/") or not path.is_file():
            continue  # this file names the patterns; the source documents are kept as given
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if SHARED_FOLDER.search(line) or (OUTSIDE_REFERENCE.search(line) and name not in NOT_YET_MOVED):
                offenders.append(f"{name}:{n}")
    assert offenders == []
