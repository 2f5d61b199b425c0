"""YAML as the registry writes it into files (agent files' front matter, scope files): byte-stable
(keys in the order given) and every string read back exactly as it was written.

PyYAML writes a string holding a line break single-quoted over several lines, each continuation
line indented: a name `Inj\\n---\\nx` became the three lines `'Inj`, `  ---`, `  x'`, and a reader
that took the indented `---` for the front matter's closing fence could not read the file back
(hostile round 13, R12). It also writes NEL (U+0085) raw, and YAML reads a raw NEL back as a line
break folded into a space. Such strings are written double-quoted instead, every break an escape
(`"Inj\\n---\\nx"`), so each value stays on its key's line.
"""

from __future__ import annotations

import yaml

# What YAML reads as a line break, and the carriage return (a file's CRLF becomes LF when it is read).
LINE_BREAKS = "\n\r\x85\u2028\u2029"


class _Dumper(yaml.SafeDumper):
    """safe_dump's dumper, with strings that hold a line break double-quoted."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if any(break_ in value for break_ in LINE_BREAKS) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump(data: object) -> str:
    """`data` as YAML text: keys in their order, Unicode as itself, no line folded (width 10,000: every
    value the registry writes is shorter, escapes included)."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000)
