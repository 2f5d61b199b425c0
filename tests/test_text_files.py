"""Text read from files follows one rule in every command (registry.text_files): strict UTF-8,
BOM dropped, CRLF → LF, the one final newline removed; a file that cannot be read is one line
naming it (exit 4 when missing, 1 otherwise), never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import psycopg
import pytest

from registry.cli import main
from registry.text_files import TextFileError, TextFileMissing, read_text_file

POSTURE = ("Mostre o saldo semana a semana e cite a fonte de cada número. " * 200)[:8000]


# -- the rule --------------------------------------------------------------------------------------
@pytest.mark.parametrize("data, text", [
    (b"abc", "abc"),
    (b"abc\n", "abc"),
    (b"abc\n\n", "abc\n"),                        # only the newline that ends the last line goes
    (b"a\r\nb\r\n", "a\nb"),
    (b"\xef\xbb\xbfa\r\nb\r\n", "a\nb"),           # a UTF-8 BOM is dropped
    (b"a\rb", "a\rb"),                            # a lone CR is text
    ("ação\n".encode(), "ação"),
    (b"", ""),
    (b"\n", ""),
])
def test_the_rule(tmp_path: Path, data: bytes, text: str):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    assert read_text_file(path) == text
    assert read_text_file(path, keep_final_newline=True).removesuffix("\n") == text


def test_not_utf8_names_the_file_and_the_byte_offset(tmp_path: Path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("Cite a fonte.\nação".encode("latin-1"))
    with pytest.raises(TextFileError) as refused:
        read_text_file(path, "--rules")
    assert str(refused.value) == f"--rules {path}: not UTF-8 text (byte 0xe7 at offset 15): save it as UTF-8"
    assert refused.value.exit_code == 1


def test_a_bom_counts_in_the_offset(tmp_path: Path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfab\xff")
    with pytest.raises(TextFileError, match="byte 0xff at offset 5"):
        read_text_file(path)


def unreadable_paths(tmp_path: Path) -> dict[str, tuple[Path | str, type, int, str]]:
    """Every way a path can fail: (path, error, exit code, message)."""
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes(b"caf\xe9\n")
    loop = tmp_path / "loop.md"
    loop.symlink_to(loop)
    return {
        "missing": (tmp_path / "nope.md", TextFileMissing, 4, "no such file"),
        "under a file": (latin1 / "x", TextFileMissing, 4, "no such file"),
        "directory": (tmp_path, TextFileError, 1, "is a directory"),
        "not utf-8": (latin1, TextFileError, 1, "not UTF-8 text (byte 0xe9 at offset 3)"),
        "unreadable": (loop, TextFileError, 1, "cannot be read: Too many levels of symbolic links"),
    }


def test_every_unreadable_path_is_one_clear_error(tmp_path: Path):
    for case, (path, error, code, message) in unreadable_paths(tmp_path).items():
        with pytest.raises(error) as raised:
            read_text_file(path, "--instructions-file")
        assert raised.value.exit_code == code, case
        assert str(raised.value).startswith(f"--instructions-file {path}: {message}"), (case, str(raised.value))
    with pytest.raises(TextFileError, match="file name is empty"):
        read_text_file("", "--rules")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_permission_denied_is_one_clear_error(tmp_path: Path):
    path = tmp_path / "secret.txt"
    path.write_text("x")
    path.chmod(0)
    with pytest.raises(TextFileError, match="cannot be read: Permission denied"):
        read_text_file(path)


# -- every command -------------------------------------------------------------------------------
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> bool:
    return "Traceback" not in err and len(err.strip().splitlines()) == 1


COMMANDS = {
    "agent create": ["agent", "create", "novo", "--tenant", "acme", "--instructions-file", "{}"],
    "agent update": ["agent", "update", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro",
                     "--version", "1", "--instructions-file", "{}"],
    "project-instructions set": ["project-instructions", "set", "--tenant", "acme", "--project", "vendas",
                                 "--instructions-file", "{}"],
    "prompt --rules": ["prompt", "--conversation", "1", "--rules", "{}"],
    "prompt --rules --explain": ["prompt", "--conversation", "1", "--explain", "--rules", "{}"],
    "import": ["import", "{}"],
}


def snapshot(url: str) -> tuple:
    with psycopg.connect(url) as conn:
        return (conn.execute("SELECT count(*), max(updated_at) FROM agents").fetchone(),
                conn.execute("SELECT array_agg(instruction_file ORDER BY id) FROM projects").fetchone())


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_every_bad_file_in_one_line(demo, capsys, tmp_path: Path, command):
    before = snapshot(demo)
    for case, (path, _, code, message) in unreadable_paths(tmp_path).items():
        if command == "import" and case == "directory":
            continue                                             # a directory of agent files: the next test
        argv = [str(path) if a == "{}" else a for a in COMMANDS[command]]
        got, out, err = run(capsys, *argv)
        if command == "import" and case in ("not utf-8", "unreadable"):
            # An import reports every refused file together (all or none): the file and the reason.
            assert got == 1 and f"  {path}: {message}" in err and "Traceback" not in err, (case, err)
        else:
            assert (got, one_line(err)) == (code, True), (case, got, err)
            assert f"{path}: {message}" in err, (case, err)
        assert out == "", (case, out)
    assert snapshot(demo) == before


def test_import_of_a_directory_names_each_bad_file(demo, capsys, tmp_path: Path):
    (tmp_path / "good.md").write_text("---\ntenant: acme\nslug: bom\nstatus: published\n---\nCite a fonte.\n")
    (tmp_path / "latin1.md").write_bytes(b"---\ntenant: acme\nslug: mau\n---\nCite a fonte, caf\xe9.\n")
    (tmp_path / "dir.md").mkdir()
    code, out, err = run(capsys, "import", str(tmp_path))
    assert code == 1 and "nothing was written: 2 file(s)" in err and "Traceback" not in err
    assert f"{tmp_path / 'latin1.md'}: not UTF-8 text (byte 0xe9 at offset 48)" in err
    assert f"{tmp_path / 'dir.md'}: is a directory" in err
    assert run(capsys, "import", "")[0] == 1                     # not the current directory


def test_a_final_newline_is_not_counted_anywhere(demo, capsys, tmp_path: Path):
    """8,000 characters and a final newline: stored as 8,000 by --instructions-file and by import alike."""
    posture = tmp_path / "posture.txt"
    posture.write_text(POSTURE + "\n", encoding="utf-8")
    code, out, err = run(capsys, "agent", "create", "longo", "--tenant", "acme", "--instructions-file", str(posture),
                         "--json")
    assert code == 0, err
    assert json.loads(out)["instructions"] == POSTURE
    agent_file = tmp_path / "agents" / "longo-projeto.md"
    agent_file.parent.mkdir()
    agent_file.write_text(f"---\ntenant: acme\nproject: vendas\nslug: longo-projeto\n---\n{POSTURE}\n")
    assert run(capsys, "import", str(agent_file))[0] == 0
    code, out, _ = run(capsys, "agent", "show", "longo-projeto", "--tenant", "acme", "--project", "vendas", "--json")
    assert json.loads(out)["instructions"] == POSTURE
    code, out, err = run(capsys, "project-instructions", "set", "--tenant", "acme", "--project", "vendas",
                         "--instructions-file", str(posture))
    assert code == 0 and "8000 characters stored" in out, err
    # A second newline is a blank line the author wrote: it counts, and 8,001 is refused.
    posture.write_text(POSTURE + "\n\n", encoding="utf-8")
    code, _, err = run(capsys, "agent", "update", "longo", "--tenant", "acme", "--version", "1",
                       "--instructions-file", str(posture))
    assert code != 0 and "8000" in err and "Traceback" not in err


def test_bom_and_crlf_are_read_the_same_everywhere(demo, capsys, tmp_path: Path):
    posture = tmp_path / "windows.txt"
    posture.write_bytes(b"\xef\xbb\xbfCite a fonte.\r\nUse tabelas.\r\n")
    code, out, err = run(capsys, "agent", "create", "windows", "--tenant", "acme", "--instructions-file", str(posture),
                         "--json")
    assert code == 0 and json.loads(out)["instructions"] == "Cite a fonte.\nUse tabelas.", err
    agent_file = tmp_path / "windows.md"
    agent_file.write_bytes(b"\xef\xbb\xbf---\r\ntenant: acme\r\nslug: windows\r\n---\r\nCite a fonte.\r\nUse tabelas.\r\n")
    code, out, err = run(capsys, "import", str(agent_file))
    assert code == 0 and "0 created, 0 updated, 1 unchanged" in out, (out, err)
    rules = tmp_path / "rules.md"
    rules.write_bytes(b"\xef\xbb\xbfREGRA UM.\r\nREGRA DOIS.\r\n")
    code, out, err = run(capsys, "prompt", "--conversation", "1", "--rules", str(rules), "--json")
    assert code == 0, err
    assert json.loads(out)["text"].startswith("REGRA UM.\nREGRA DOIS.")


def test_a_workspace_that_is_not_a_directory_is_one_line(demo, capsys, tmp_path: Path):
    afile = tmp_path / "f.txt"
    afile.write_text("x")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for value, code, message in ((str(tmp_path / "nope"), 4, "no such directory"), (str(afile), 1, "not a directory"),
                                 (str(loop), 4, "no such directory"), ("", 4, "no such directory")):
        got, out, err = run(capsys, "prompt", "--conversation", "1", "--workspace", value)
        assert (got, one_line(err), out) == (code, True, ""), (value, err)
        assert f"--workspace {value}: {message}" in err
