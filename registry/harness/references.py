"""References in a task's text: URLs, file paths, `#42` issues, `PR #55`, and custom patterns
(seed 002, "Motor de Pre-Hydration", "Padrões Integrados" and "Padrões Personalizados").

`extract_references(text, custom_patterns)` finds them, deduplicated, in order of first
appearance. Where two matches overlap, the one that starts first wins, then the longer one
("PR #55" is a pull request, not the issue "#55"; the "PROJ-1" inside a URL is part of the URL).

Built-in forms:

    url    http(s):// and ftp:// up to a space or quote; trailing . , ; : ! ? and unbalanced
           closing brackets are punctuation of the sentence, not the URL
    file   ./a, ../a, ~/a, /a/b, C:\\a\\b, .\\a\\b, and relative paths with a folder and an
           extension (src/api/handlers.py, src\\api\\handlers.py); Windows separators of relative
           paths become "/"
    pr     PR #55, pr #12, pull request #7
    issue  #42 (not inside a word, a URL fragment or an HTML entity)
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass

from registry.errors import InvalidInput

_TRAILING_PUNCTUATION = ".,;:!?'\""
_BRACKETS = {")": "(", "]": "[", "}": "{"}

_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>\"'`]+", re.I)
_PR = re.compile(r"\b(?:PR|pull request)\s*#(\d+)\b", re.I)
_ISSUE = re.compile(r"(?<![\w#&/])#(\d+)\b")
_WINDOWS_ABSOLUTE = re.compile(r"(?<![\w])[A-Za-z]:\\(?:[^\\/:*?\"<>|\s]+\\)*[^\\/:*?\"<>|\s]+")
_WINDOWS_RELATIVE = re.compile(r"(?<![\w.\\])\.{1,2}\\(?:[^\\/:*?\"<>|\s]+\\)*[^\\/:*?\"<>|\s]+")
# src\api\handlers.py: a folder and an extension, as for POSIX relative paths.
_WINDOWS_BARE = re.compile(r"(?<![\w.\\:@+-])[\w@+-][\w.@+-]*(?:\\[\w.@+-]+)*\\[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]*\b")
_POSIX_ANCHORED = re.compile(r"(?<![\w:/.~-])(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]+")
_POSIX_RELATIVE = re.compile(r"(?<![\w:/.~@+-])[\w@+-][\w.@+-]*(?:/[\w.@+-]+)*/[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]*\b")

BUILTIN_KINDS = ("url", "file", "pr", "issue")
_KIND = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


@dataclass(frozen=True)
class ReferencePattern:
    """A custom reference: `kind` names it (e.g. "jira"), `pattern` is a regular expression; its
    first group, if it has one, is the reference's target, else the whole match."""

    kind: str
    pattern: str

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not _KIND.match(self.kind):
            raise InvalidInput(f"a reference kind is lowercase letters, digits, '_' or '-' (at most 40), "
                               f"got {self.kind!r}")
        try:
            compiled = re.compile(self.pattern)
        except (re.error, TypeError) as error:
            raise InvalidInput(f"reference pattern {self.pattern!r} of kind {self.kind!r} is not a regular "
                               f"expression: {error}") from None
        if compiled.match(""):
            raise InvalidInput(f"reference pattern {self.pattern!r} of kind {self.kind!r} matches the empty "
                               "text: it would find a reference everywhere")


@dataclass(frozen=True)
class Reference:
    """One reference: its kind, the text as written in the task, and the normalised target that
    resolvers receive and duplicates are recognised by."""

    kind: str
    text: str
    target: str

    @property
    def label(self) -> str:
        return f"{self.kind} {self.target}"


@dataclass(frozen=True)
class _Match:
    start: int
    end: int
    rank: int  # among equal spans, the earlier-declared form wins
    reference: Reference


def extract_references(text: str, custom_patterns: Sequence[ReferencePattern] = ()) -> tuple[Reference, ...]:
    """The task's references, deduplicated by (kind, target), in order of first appearance."""
    if not isinstance(text, str):
        raise InvalidInput(f"a task is text, got {type(text).__name__}")
    candidates = sorted(_candidates(text, custom_patterns), key=lambda m: (m.start, -(m.end - m.start), m.rank))
    references: list[Reference] = []
    seen: set[tuple[str, str]] = set()
    taken_until = -1
    for match in candidates:
        if match.start < taken_until:
            continue  # overlaps a match that starts earlier or is longer
        taken_until = match.end
        key = (match.reference.kind, match.reference.target)
        if key not in seen:
            seen.add(key)
            references.append(match.reference)
    return tuple(references)


def _candidates(text: str, custom_patterns: Sequence[ReferencePattern]) -> list[_Match]:
    found: list[_Match] = []
    for m in _URL.finditer(text):
        url = _trim_url(m.group())
        if "://" in url and not url.endswith("://"):
            found.append(_Match(m.start(), m.start() + len(url), 0, Reference("url", url, url)))
    for m in _PR.finditer(text):
        found.append(_Match(m.start(), m.end(), 1, Reference("pr", m.group(), str(int(m.group(1))))))
    for m in _ISSUE.finditer(text):
        found.append(_Match(m.start(), m.end(), 2, Reference("issue", m.group(), str(int(m.group(1))))))
    for rank, pattern in enumerate((_WINDOWS_ABSOLUTE, _WINDOWS_RELATIVE, _WINDOWS_BARE, _POSIX_ANCHORED,
                                    _POSIX_RELATIVE), 3):
        for m in pattern.finditer(text):
            written = m.group().rstrip(_TRAILING_PUNCTUATION)
            if written and written not in {".", "..", "~", "/"}:
                found.append(_Match(m.start(), m.start() + len(written), rank,
                                    Reference("file", written, _file_target(written))))
    for rank, custom in enumerate(custom_patterns, 20):
        for m in re.finditer(custom.pattern, text):
            if m.end() > m.start():
                target = m.group(1) if m.re.groups and m.group(1) is not None else m.group()
                found.append(_Match(m.start(), m.end(), rank, Reference(custom.kind, m.group(), target)))
    return found


def _trim_url(url: str) -> str:
    """Drop the sentence's punctuation from a URL's end: trailing . , ; : ! ? and quotes, and a
    closing bracket that the URL did not open (Wikipedia's "Foo_(bar)" keeps its parenthesis)."""
    while url:
        last = url[-1]
        if last in _TRAILING_PUNCTUATION:
            url = url[:-1]
        elif last in _BRACKETS and url.count(last) > url.count(_BRACKETS[last]):
            url = url[:-1]
        else:
            break
    return url


def _file_target(written: str) -> str:
    """Relative paths in POSIX form, normalised (./src/a.py and src/a.py are one file);
    absolute, home and Windows drive paths as written (they are refused later, or read whole)."""
    if re.match(r"^[A-Za-z]:\\", written):
        return written
    path = written.replace("\\", "/")  # a drive path was returned above: backslashes here are separators
    if path.startswith("~"):
        return path
    return posixpath.normpath(path)
