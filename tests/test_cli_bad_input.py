"""Bad input the first user met (issue 13): one line on stderr, the documented exit code, never
a traceback."""

from __future__ import annotations

import pytest

from registry.cli import main


@pytest.mark.parametrize("argv, code, message", [
    (["export", "/etc/passwd"], 1, "is not a folder"),
    (["export", "/proc/nope"], 1, "cannot write /proc/nope/"),
    (["conversation", "show", "99999999999999999999999"], 4, "no conversation with id"),
    (["agent", "show", "99999999999999999999999"], 4, "no agent with id"),
    (["agent", "update", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro",
      "--version", "99999999999", "--name", "x"], 1, "cannot exist"),
])
def test_bad_input_is_one_line_and_its_exit_code(demo, capsys, argv, code, message):
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_budget_for_no_layer_is_refused_with_or_without_explain(demo, capsys):
    for argv in (["prompt", "--conversation", "1", "--budget", "nosuch=5"],
                 ["prompt", "--conversation", "1", "--budget", "nosuch=5", "--explain"]):
        assert main(argv) != 0
        _, err = capsys.readouterr()
        assert "no layer 'nosuch'" in err and len(err.strip().splitlines()) == 1


def test_a_budget_alone_builds_the_prompt_by_layers(demo, capsys):
    assert main(["prompt", "--conversation", "1", "--budget", "instruction_files=10"]) == 0
    assert "## Task state" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["default", "set", "nope-nope", "--tenant", "acme", "--yes"],
    ["conversation", "start", "--tenant", "acme", "--agent", "nope-nope"],
])
def test_an_orphan_is_stored_with_a_warning(demo, capsys, argv):
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "warning: 'nope-nope' resolves to no agent" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["conversation", "start"], ["default"], ["agent", "show"], ["nosuch"],
                                  ["prompt", "--conversation", "x"]])
def test_usage_errors_are_one_line_too(capsys, argv):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error:" in err and "--help" in err, err
