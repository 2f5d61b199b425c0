"""Tenant, project and agent references on the command line fail closed: an empty, blank,
non-ASCII-digit, non-UTF-8 or unknown value is refused with one line before anything runs —
never read as "no tenant" (which would run unscoped as the login) and never a traceback."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import psycopg
import pytest

from registry.cli import main
from registry.paths import ROOT
from registry.errors import NotFound
from registry.refs import InvalidReference, parse_ref, parse_slug


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> bool:
    return "Traceback" not in err and len(err.strip().splitlines()) == 1


def agent_count(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM agents").fetchone()[0]


# -- the rule itself ---------------------------------------------------------------------------
@pytest.mark.parametrize("value, expected", [
    ("acme", "acme"), ("12", 12), ("007", 7), ("a-b-1", "a-b-1"), (5, 5),
    (str(2**63 - 1), 2**63 - 1),
])
def test_ids_are_ascii_digits_and_everything_else_a_slug(value, expected):
    assert parse_ref(value, "tenant") == expected


@pytest.mark.parametrize("value", [
    "", " ", "\t", "²", "٣", "³", "１２", "-1", "+1", "1 ", " 1", "1.0", "Acme", "acme_co", "acme-", "-acme",
    "a--b", "acme\n", "tenant-\udcff", "a" * 81, "ação", "acme\u202e", True, None, 1.5,
])
def test_anything_else_is_refused_naming_the_rule(value):
    with pytest.raises(InvalidReference) as refused:
        parse_ref(value, "--tenant")
    assert refused.value.exit_code == 2
    message = str(refused.value)
    assert message.startswith("--tenant") and message.isascii() and "\n" not in message


@pytest.mark.parametrize("value", ["0", "000", str(2**63), 0, -1, 2**63])
def test_an_id_no_row_can_have_is_not_found(value):
    with pytest.raises(NotFound, match="ids are positive 64-bit integers"):
        parse_ref(value, "tenant")


def test_a_slug_never_becomes_an_id_and_empty_is_allowed_only_when_asked():
    assert parse_slug("123", "agent") == "123"
    assert parse_slug("", "default", allow_empty=True) == ""
    with pytest.raises(InvalidReference, match="empty"):
        parse_slug("", "agent")
    with pytest.raises(InvalidReference, match="must be a slug"):
        parse_slug("٣", "agent")


def test_nothing_that_reads_references_calls_isdigit():
    """str.isdigit/isdecimal/isnumeric take '²' or '٣': no module that reads references calls them."""
    cli = [f"cli/{p.name}" for p in sorted((ROOT / "registry" / "cli").glob("*.py"))]
    for name in (*cli, "refs.py", "api.py", "repository.py", "agent_io.py", "agent_export.py"):
        tree = ast.parse((ROOT / "registry" / name).read_text(encoding="utf-8"))
        calls = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                 and node.attr in ("isdigit", "isdecimal", "isnumeric")]
        assert calls == [], name


# -- --as-tenant -----------------------------------------------------------------------------
@pytest.mark.parametrize("value, code, message", [
    ("", 2, "--as-tenant is empty"),
    ("   ", 2, "--as-tenant is blank"),
    ("²", 2, "--as-tenant '\\xb2' must be an id (ASCII digits 0-9) or a slug"),
    ("٣", 2, "--as-tenant '\\u0663' must be an id (ASCII digits 0-9) or a slug"),
    ("Acme", 2, "must be an id"),
    ("tenant-\udcff", 2, "not valid UTF-8 (byte 0xff at offset 7)"),
    ("nope", 4, "--as-tenant: no tenant 'nope'"),
    ("999999", 4, "--as-tenant: no tenant 999999"),
    ("0", 4, "no --as-tenant with id 0"),
])
def test_as_tenant_fails_closed_and_runs_nothing(demo, capsys, value, code, message):
    before = agent_count(demo)
    result = run(capsys, "--as-tenant", value, "agent", "create", "sneaky", "--tenant", "acme",
                 "--instructions", "Seja cordial.", "--publish")
    assert result[0] == code and message in result[2], result
    assert one_line(result[2]) and result[1] == ""
    assert agent_count(demo) == before
    # A read is refused too: an empty tenant never means "unscoped as the login".
    result = run(capsys, "--as-tenant", value, "agents", "--tenant", "acme", "--json")
    assert result[0] == code and result[1] == "" and one_line(result[2]), result


def test_as_tenant_by_id_and_with_equals_sign(demo, capsys):
    code, out, _ = run(capsys, "agents", "--tenant", "globex", "--json")
    globex_id = json.loads(out)[0]["tenant_id"]
    code, out, err = run(capsys, "--as-tenant", str(globex_id), "agents", "--tenant", "acme")
    assert code == 4 and "no tenant 'acme'" in err            # scoped: acme does not exist for globex
    code, out, err = run(capsys, f"--as-tenant={globex_id}", "conversation", "show", "1")
    assert code == 4 and "no conversation 1" in err
    code, out, err = run(capsys, "--as-tenant=", "conversation", "show", "1")
    assert code == 2 and "--as-tenant is empty" in err


# -- --tenant, --project, agent slugs and ids ----------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["agents", "--tenant", "²"], "--tenant '\\xb2' must be an id"),
    (["agents", "--tenant", "٣"], "--tenant '\\u0663' must be an id"),
    (["agents", "--tenant", ""], "--tenant is empty"),
    (["agents", "--tenant", "acme", "--project", "³"], "--project '\\xb3' must be an id"),
    (["agents", "--tenant", "acme", "--project", " "], "--project is blank"),
    (["agent", "show", "³"], "agent '\\xb3' must be an id"),
    (["agent", "show", "٣"], "agent '\\u0663' must be an id"),
    (["agent", "show", ""], "agent is empty"),
    (["agent", "history", "Caixa", "--tenant", "acme"], "agent 'Caixa' must be an id"),
    (["optout", "add", "--tenant", "acme", "--project", "vendas", "--agent", "٣"], "--agent '\\u0663' must be a slug"),
    (["impact", "delete", "²"], "agent '\\xb2' must be an id"),
    (["impact", "default", "X", "--tenant", "acme"], "agent 'X' must be a slug"),
    (["default", "set", "Ab", "--tenant", "acme", "--yes"], "the default agent 'Ab' must be a slug"),
    (["conversation", "pin", "1", "٣"], "agent '\\u0663' must be a slug"),
    (["conversation", "start", "--tenant", "acme", "--agent", "A"], "--agent 'A' must be a slug"),
    (["project-instructions", "show", "--tenant", "acme", "--project", "vendas\udcff"], "not valid UTF-8"),
    (["agent", "create", "x", "--name", "caf\udce9"], "--name is not valid UTF-8 (byte 0xe9 at offset 3)"),
    (["export", "/tmp/x\udcff", "--tenant", "acme"], "directory is not valid UTF-8"),
])
def test_bad_references_are_one_line_exit_2(demo, capsys, argv, message):
    before = agent_count(demo)
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and one_line(err), (code, out, err)
    assert agent_count(demo) == before


@pytest.mark.parametrize("argv, message", [
    (["conversation", "٣"], "no action '٣'"),            # not taken for `conversation show 3`
    (["conversation", "show", "٣"], "expected a number in ASCII digits 0-9"),
    (["prompt", "--conversation", "٣"], "expected a number in ASCII digits 0-9"),
    (["agent", "update", "caixa", "--tenant", "acme", "--version", "١", "--note", "x"],
     "expected a number in ASCII digits 0-9"),
])
def test_numbers_are_ascii_digits_only(demo, capsys, argv, message):
    with pytest.raises(SystemExit) as exited:                   # argparse's usage error
        main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_empty_default_and_pin_still_mean_explicitly_none(demo, capsys):
    code, out, err = run(capsys, "default", "set", "", "--tenant", "acme", "--project", "vendas", "--yes")
    assert code == 0 and "explicitly has no default" in out, err
    code, out, err = run(capsys, "conversation", "pin", "1", "", "--json")
    assert code == 0 and json.loads(out)["mode"] == "none", err


def test_ids_still_work_for_tenant_project_and_agent(demo, capsys):
    code, out, _ = run(capsys, "agents", "--tenant", "acme", "--project", "vendas", "--json")
    entry = json.loads(out)[0]
    code, out, _ = run(capsys, "agents", "--tenant", str(entry["tenant_id"]), "--project", str(entry["project_id"]),
                       "--json")
    assert code == 0 and json.loads(out)[0] == entry
    code, out, _ = run(capsys, "agent", "show", str(entry["agent_id"]), "--json")
    assert code == 0 and json.loads(out)["slug"] == entry["slug"]


def test_non_utf8_argv_from_a_shell_is_one_line(demo):
    """What `registry --as-tenant $'tenant-\\xff' …` passes: raw bytes, not text."""
    env = dict(os.environ, REGISTRY_DATABASE_URL=demo, PYTHONUTF8="1")
    for argv in ([b"--as-tenant", b"tenant-\xff", b"agents", b"--tenant", b"acme"],
                 [b"agents", b"--tenant", b"tenant-\xff"],
                 [b"agent", b"show", b"\xb3"]):
        result = subprocess.run([sys.executable.encode(), b"-m", b"registry.cli", *argv], cwd=ROOT, env=env,
                                capture_output=True, timeout=60)
        err = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2 and "not valid UTF-8 (byte 0x" in err and one_line(err), err
        assert result.stdout == b""


def test_an_actor_that_is_not_utf8_is_one_line(demo, capsys, monkeypatch):
    monkeypatch.setenv("REGISTRY_ACTOR", "ana\udcff")
    code, out, err = run(capsys, "agents", "--tenant", "acme")
    assert code == 2 and "actor" in err and "not valid UTF-8 (byte 0xff at offset 3)" in err and one_line(err)


SERVICE_LOGIN = "registry_test_cli_service"
PLAIN_LOGIN = "registry_test_cli_plain"


def test_as_tenant_through_an_app_login(demo, capsys, monkeypatch):
    """A service login (registry_app + registry_service) acts for a tenant named by id; a slug it
    cannot see, and a plain app login may name no tenant: both refused before anything runs."""
    with psycopg.connect(demo, autocommit=True) as conn:
        for login, roles in ((SERVICE_LOGIN, "registry_app, registry_service"), (PLAIN_LOGIN, "registry_app")):
            conn.execute(f"""DO $$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{login}') THEN
                    CREATE ROLE {login} LOGIN IN ROLE {roles};
                END IF; END $$""")
        acme = conn.execute("SELECT id FROM tenants WHERE slug = 'acme'").fetchone()[0]
    info = psycopg.conninfo.conninfo_to_dict(demo)
    url = f"postgresql://{{}}@{info['host']}:{info['port']}/{info['dbname']}"
    before = agent_count(demo)

    monkeypatch.setenv("REGISTRY_DATABASE_URL", url.format(SERVICE_LOGIN))
    code, out, err = run(capsys, "--as-tenant", str(acme), "agents", "--tenant", "acme", "--json")
    assert code == 0 and {a["tenant_id"] for a in json.loads(out)} <= {acme, None}, err
    code, out, err = run(capsys, "--as-tenant", "acme", "agents", "--tenant", "acme")
    assert code == 4 and "sees its tenant by id only" in err and one_line(err) and out == ""
    code, out, err = run(capsys, "--as-tenant", "", "agent", "create", "x", "--tenant", "acme", "--instructions", "y")
    assert code == 2 and one_line(err)

    monkeypatch.setenv("REGISTRY_DATABASE_URL", url.format(PLAIN_LOGIN))
    code, out, err = run(capsys, "--as-tenant", str(acme), "agent", "create", "x", "--tenant", str(acme),
                         "--instructions", "Seja cordial.")
    assert code == 4 and f"no tenant {acme}" in err and one_line(err)
    assert agent_count(demo) == before
