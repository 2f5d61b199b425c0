"""Tool profiles: include → exclude → verified → cap, sorted by name, only ever narrowing; bad
globs refused on write with the reason."""

from __future__ import annotations

import itertools
import random

import pytest
from pydantic import ValidationError

from registry.errors import InvalidInput
from registry.tool_profiles import (
    MAX_PATTERN_LENGTH,
    Tool,
    ToolProfile,
    filter_tools,
    validate_glob,
)

TOOLS = [
    Tool(name="web_search", verified=True),
    Tool(name="web_fetch"),
    Tool(name="web_experimental_scrape", verified=True),
    Tool(name="file_read", verified=True),
    Tool(name="file_write"),
    Tool(name="debug_dump"),
    Tool(name="sql:consultar_caixa", verified=True),
    Tool(name="tool_a"),
    Tool(name="tool_10"),
]


def names(tools) -> list[str]:
    return [tool.name for tool in tools]


def test_the_default_profile_keeps_everything_sorted_by_name():
    assert names(filter_tools(TOOLS, ToolProfile())) == sorted(names(TOOLS))
    assert names(filter_tools(TOOLS, None)) == sorted(names(TOOLS))


def test_the_seed_example_include_exclude_cap():
    profile = ToolProfile(include=["web_*", "search_*"], exclude=["web_experimental_*"], max_tools=10)
    assert names(filter_tools(TOOLS, profile)) == ["web_fetch", "web_search"]


def test_question_mark_and_brackets():
    assert names(filter_tools(TOOLS, ToolProfile(include=["tool_?"]))) == ["tool_a"]
    assert names(filter_tools(TOOLS, ToolProfile(include=["tool_[0-9]*"]))) == ["tool_10"]
    assert names(filter_tools(TOOLS, ToolProfile(include=["tool_[!0-9]"]))) == ["tool_a"]
    assert names(filter_tools(TOOLS, ToolProfile(include=["sql:*"]))) == ["sql:consultar_caixa"]


def test_globs_are_case_sensitive():
    assert filter_tools(TOOLS, ToolProfile(include=["WEB_*"])) == []


def test_exclude_wins_over_include():
    profile = ToolProfile(include=["file_*"], exclude=["file_write"])
    assert names(filter_tools(TOOLS, profile)) == ["file_read"]


def test_an_empty_include_means_no_include_filter():
    assert names(filter_tools(TOOLS, ToolProfile(include=[], exclude=["*_*_*"]))) == names(
        filter_tools(TOOLS, ToolProfile(exclude=["*_*_*"])))


def test_require_verified_keeps_verified_tools_only():
    assert names(filter_tools(TOOLS, ToolProfile(require_verified=True))) == [
        "file_read", "sql:consultar_caixa", "web_experimental_scrape", "web_search"]


def test_the_cap_applies_last_to_the_sorted_survivors():
    profile = ToolProfile(exclude=["debug_*"], require_verified=True, max_tools=2)
    assert names(filter_tools(TOOLS, profile)) == ["file_read", "sql:consultar_caixa"]
    assert filter_tools(TOOLS, ToolProfile(max_tools=0)) == []


def test_input_order_does_not_change_the_result():
    profile = ToolProfile(include=["web_*", "file_*", "tool_*"], max_tools=4)
    expected = names(filter_tools(TOOLS, profile))
    for seed in range(20):
        shuffled = TOOLS[:]
        random.Random(seed).shuffle(shuffled)
        assert names(filter_tools(shuffled, profile)) == expected


@pytest.mark.parametrize("profile", [
    ToolProfile(include=list(include), exclude=list(exclude), require_verified=verified, max_tools=cap)
    for include, exclude, verified, cap in itertools.product(
        [(), ("*",), ("web_*", "file_*"), ("nothing",)], [(), ("*_*",), ("web_?etch",)], [False, True], [None, 0, 3])
])
def test_a_profile_only_narrows(profile):
    result = filter_tools(TOOLS, profile)
    assert all(any(tool is given for given in TOOLS) for tool in result)
    assert len(result) <= len(TOOLS) and len({tool.name for tool in result}) == len(result)


def test_duplicate_tool_names_are_refused():
    with pytest.raises(InvalidInput, match="web_fetch"):
        filter_tools([Tool(name="web_fetch"), Tool(name="web_fetch", verified=True)], ToolProfile())


def test_tool_ignores_other_fields_and_profile_refuses_unknown_ones():
    tool = Tool.model_validate({"name": "web_fetch", "verified": True, "description": "[verified] fetch"})
    assert tool == Tool(name="web_fetch", verified=True)
    with pytest.raises(ValidationError, match="exclud"):
        ToolProfile.model_validate({"exclud": ["debug_*"]})


def test_a_profile_round_trips_through_json():
    profile = ToolProfile(include=["web_*"], exclude=["web_experimental_*"], require_verified=True, max_tools=5)
    assert ToolProfile.model_validate_json(profile.model_dump_json()) == profile
    assert profile.model_dump(mode="json") == {"include": ["web_*"], "exclude": ["web_experimental_*"],
                                               "require_verified": True, "max_tools": 5}


@pytest.mark.parametrize(("pattern", "reason"), [
    ("", "cannot be empty"),
    ("web search", "characters ' '"),
    ("web_.+$", "characters '$+'"),
    ("ferramenta_ação", "characters 'ãç'"),
    ("web_[abc", "never closed"),
    ("web_abc]", "never opened"),
    ("web_[a[b]]", "inside another"),
    ("web_[]", "empty bracket"),
    ("web_[!]", "empty bracket"),
    ("!web_*", "only allowed right after '['"),
    ("web_[a!]", "only allowed right after '['"),
    ("w" * (MAX_PATTERN_LENGTH + 1), "the limit is"),
])
def test_bad_globs_are_refused_with_the_reason(pattern, reason):
    with pytest.raises(ValueError) as refused:
        validate_glob(pattern)
    assert reason in str(refused.value)
    with pytest.raises(ValidationError) as on_write:
        ToolProfile(exclude=["debug_*", pattern])
    assert reason in str(on_write.value)


@pytest.mark.parametrize("pattern", ["*", "web_*", "tool_?", "tool_[0-9]", "tool_[!a-c]*", "sql:*", "group/tool",
                                     "a.b-c", "w" * MAX_PATTERN_LENGTH])
def test_good_globs_pass(pattern):
    assert validate_glob(pattern) == pattern


@pytest.mark.parametrize("data", [{"max_tools": -1}, {"include": ["*"] * 65}, {"require_verified": "maybe"}])
def test_other_bad_profiles_are_refused(data):
    with pytest.raises(ValidationError):
        ToolProfile.model_validate(data)
