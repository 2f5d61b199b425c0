"""Text read from files: one rule for every command that reads one.

`agent create/update --instructions-file`, `project-instructions set --instructions-file`,
`prompt --rules` and `import` (agent files) all read through `read_text_file`:

* the bytes are decoded as UTF-8, strictly; a UTF-8 byte order mark at the start is dropped;
* CRLF line ends become LF;
* exactly one final newline is removed when there is one — the newline that ends the file's last
  line is not part of the text (a file holding 8,000 characters and a final newline stores 8,000;
  a second newline is kept: it is a blank line the author wrote).

What cannot be read is one line naming the file, never a traceback:

* no such file                                    → TextFileMissing (NotFound, exit 4);
* a directory, a path that cannot be read
  (permissions, a symbolic-link loop, …), or
  bytes that are not UTF-8 (named with the offset) → TextFileError (InvalidInput, exit 1).
"""

from __future__ import annotations

from pathlib import Path

from registry.errors import InvalidInput, NotFound
from registry.refs import not_utf8, shown

BOM = "\ufeff"


class TextFileError(InvalidInput):
    """A text file that is a directory, cannot be read, or is not UTF-8 (exit 1)."""


class TextFileMissing(NotFound):
    """A text file that does not exist (exit 4)."""


def normalise_text(text: str) -> str:
    """The rule on a decoded text: no BOM, LF line ends, the one final newline removed."""
    return text.removeprefix(BOM).replace("\r\n", "\n").removesuffix("\n")


def decode_text(data: bytes, source: str) -> str:
    """Strict UTF-8 of a file's bytes (BOM and CRLF handled, the final newline kept): a byte
    that is not UTF-8 is TextFileError naming `source` and the byte's offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise TextFileError(f"{source}: not UTF-8 text (byte 0x{byte:02x} at offset {error.start}): "
                            "save it as UTF-8") from None
    return text.removeprefix(BOM).replace("\r\n", "\n")


def read_text_file(path: str | Path, what: str | None = None, *, keep_final_newline: bool = False) -> str:
    """A text file's content under the module's rule. `what` names where the path came from
    ("--rules"), for the message; `keep_final_newline` is for parsers that apply the rule
    themselves (agent files: registry.agent_files.parse_agent_file)."""
    source = _describe(path, what)
    if isinstance(path, str) and path.strip() == "":
        raise TextFileError(f"{what or 'file'}: the file name is empty")
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise TextFileMissing(f"{source}: no such file") from None
    except IsADirectoryError:
        raise TextFileError(f"{source}: is a directory, not a file") from None
    except NotADirectoryError:
        raise TextFileMissing(f"{source}: no such file (a part of the path is not a directory)") from None
    except OSError as error:
        raise TextFileError(f"{source}: cannot be read: {error.strerror or type(error).__name__}") from None
    text = decode_text(data, source)
    return text if keep_final_newline else text.removesuffix("\n")


def _describe(path: str | Path, what: str | None) -> str:
    name = str(path)
    shown_name = shown(name, 200) if not_utf8(name) is not None or "\n" in name else name
    return f"{what} {shown_name}" if what else shown_name
