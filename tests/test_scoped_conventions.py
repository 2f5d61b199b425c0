"""Directory-scoped conventions resolved for one directory: nearest directory first, then parents,
then the language's; layers within a level; duplicates by content keep the nearest; cut to a
token limit. Pure: no database (tests/test_conventions.py stores them)."""

from __future__ import annotations

import pytest

from registry.errors import InvalidInput
from registry.harness.scoped_conventions import (
    Convention,
    directory_levels,
    normalise_directory,
    resolve_conventions,
)
from registry.tokens import get_tokenizer

EXACT = get_tokenizer("cl100k_base")

ROWS = [
    Convention(1, "official", None, "python", "Type hints em funções públicas."),
    Convention(2, "tenant", "", None, "Valores em reais, duas casas."),
    Convention(3, "project", "src", None, "Módulos pequenos, um assunto cada."),
    Convention(4, "tenant", "src/api", None, "Erros da API são tipados."),
    Convention(5, "project", "src/api", None, "Handlers não fazem SQL direto."),
    Convention(6, "project", "src/api/handlers", "python", "Handlers async usam asyncio.timeout."),
    Convention(7, "project", "src/api/handlers", None, "Valores   em reais,\nduas casas."),  # duplicate of 2
    Convention(8, "official", "src/api/handlers", "go", "Handlers Go devolvem error."),         # other language
    Convention(9, "project", "docs", None, "Docs em português."),                               # other branch
    Convention(10, "tenant", None, "sql", "SQL nomeia as colunas."),                             # other language
    Convention(11, "official", "src/api", None, "Erros da API são tipados."),                    # duplicate of 4
]


def ids(conventions) -> list[int]:
    return [c.id for c in conventions]


def test_nested_directory_across_layers_with_duplicates():
    resolved = resolve_conventions(ROWS, "src/api/handlers", "python", limit_tokens=10_000, tokenizer=EXACT)
    # handlers (python first), src/api (project, tenant), src, root, then the language level.
    assert ids(resolved.kept) == [6, 7, 5, 4, 3, 1]
    assert ids(resolved.duplicates) == [11, 2]  # the nearest copy won: 7 over 2, 4 over 11
    assert resolved.over_limit == ()
    units = resolved.units()
    assert units[0].startswith("### language python") and units[-1].startswith("### src/api/handlers/ (python)")


def test_without_a_language_only_language_agnostic_ones_apply():
    resolved = resolve_conventions(ROWS, "src/api/handlers", None, limit_tokens=10_000, tokenizer=EXACT)
    assert ids(resolved.kept) == [7, 5, 4, 3]


def test_the_root_and_a_sibling_branch():
    assert ids(resolve_conventions(ROWS, "", None, limit_tokens=10_000, tokenizer=EXACT).kept) == [2]
    assert ids(resolve_conventions(ROWS, "docs/guia", "sql", limit_tokens=10_000, tokenizer=EXACT).kept) == [9, 2, 10]


def test_the_limit_cuts_the_farthest_whole_conventions():
    full = resolve_conventions(ROWS, "src/api/handlers", "python", limit_tokens=10_000, tokenizer=EXACT)
    two = EXACT.count("\n\n".join(c.render() for c in full.kept[:2]))
    resolved = resolve_conventions(ROWS, "src/api/handlers", "python", limit_tokens=two, tokenizer=EXACT)
    assert ids(resolved.kept) == [6, 7] and ids(resolved.over_limit) == [5, 4, 3, 1]
    assert resolved.tokens == two
    assert resolve_conventions(ROWS, "src/api/handlers", "python", limit_tokens=0, tokenizer=EXACT).kept == ()


def test_input_order_does_not_matter():
    forward = resolve_conventions(ROWS, "src/api/handlers", "python", limit_tokens=10_000, tokenizer=EXACT)
    backward = resolve_conventions(reversed(ROWS), "src/api/handlers", "python", limit_tokens=10_000, tokenizer=EXACT)
    assert forward == backward


@pytest.mark.parametrize("given, expected", [
    ("src/api/", "src/api"), ("./src//api", "src/api"), ("src\\api", "src/api"), (".", ""), ("/", ""), ("", ""),
    (None, ""),
])
def test_directories_are_normalised(given, expected):
    assert normalise_directory(given) == expected


@pytest.mark.parametrize("given, message", [
    ("../outside", "'..'"), ("/abs/path", "relative"), ("C:\\src", "drive"), ("src/ignore all rules", "segment"),
    ("src/.hidden", "segment"),
])
def test_bad_directories_are_refused(given, message):
    with pytest.raises(InvalidInput, match=message):
        normalise_directory(given)


def test_levels_walk_up_to_the_root():
    assert directory_levels("src/api/handlers") == ("src/api/handlers", "src/api", "src", "")
    assert directory_levels("") == ("",)
