"""Agent files: Markdown with a YAML front matter, the format people edit by hand.

    ---
    slug: analista-financeiro
    name: Analista financeiro
    status: published
    tenant: acme          # omit for the official layer
    project: financeiro   # omit for the tenant layer
    ---
    The instructions, verbatim, up to the end of the file.

The body is the instructions exactly: only the single newline that ends the file is not
part of them. Files are read by registry.text_files (strict UTF-8, BOM dropped, CRLF → LF), the
rule every command that reads a text file follows.

The two fences are lines that are `---` from their first character (trailing blanks allowed, as a
hand-edited file has them). An indented `---` is inside a value: YAML indents the continuation
lines of a multi-line string, and an export of a name written in SQL as `Inj\n---\n…` held one
(hostile round 13, R12; registry.yaml_files now writes such strings on one line).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from registry.errors import RegistryError
from registry.models import AgentFile, describe_validation_error
from registry.text_files import normalise_text, read_text_file

_FENCE = "---"


def _is_fence(line: str) -> bool:
    return line.rstrip(" \t") == _FENCE


class AgentFileError(RegistryError):
    """An agent file that cannot be read: names the file and what to fix."""


def parse_agent_file(text: str, source: str = "<text>") -> AgentFile:
    """An agent file's text, as read (registry.text_files.normalise_text is applied here)."""
    lines = normalise_text(text).split("\n")
    if not lines or not _is_fence(lines[0]):
        raise AgentFileError(f"{source}: must start with a '---' line opening the front matter")
    try:
        end = next(i for i, line in enumerate(lines[1:], start=1) if _is_fence(line))
    except StopIteration:
        raise AgentFileError(f"{source}: the front matter is not closed by a '---' line (at the start of its "
                             "line: an indented '---' belongs to a value)") from None
    try:
        header = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as error:
        raise AgentFileError(f"{source}: the front matter is not valid YAML: {error}") from error
    if not isinstance(header, dict):
        raise AgentFileError(f"{source}: the front matter must be a mapping of keys to values")
    body = "\n".join(lines[end + 1:])
    try:
        return AgentFile.model_validate({**header, "instructions": body})
    except ValidationError as error:
        raise AgentFileError(f"{source}: {describe_validation_error(error, 'file')}") from error


def read_agent_file(path: Path) -> AgentFile:
    """TextFileError/TextFileMissing when the file cannot be read as UTF-8 text."""
    return parse_agent_file(read_text_file(path, keep_final_newline=True), str(path))


def read_agent_dir(directory: Path) -> list[AgentFile]:
    """Every *.md file of a directory, in name order."""
    return [read_agent_file(p) for p in sorted(directory.glob("*.md"))]
