"""`registry migrate` never claims what it did not do: a revision below the database's is a
downgrade and needs --downgrade; the revision is read back before and after; a downgrade that
drops data names the tables and columns with their row counts and asks unless --yes."""

from __future__ import annotations

import io
import sys

import psycopg
import pytest

from registry import migrate
from registry.api import Registry
from registry.cli import main
from registry.migrate import Dropped, MigrationRefused

HEAD = migrate.revisions()[-1]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def revision(url: str) -> str | None:
    return migrate.current_revision(url)


def counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("agents", "agent_versions", "agent_adoptions", "conversations")}


@pytest.fixture
def seeded(empty_db_url, monkeypatch, capsys) -> str:
    """A database at head with data in every table a downgrade can drop."""
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    assert main(["demo"]) == 0
    assert main(["agent", "update", "analista-financeiro", "--version", "1", "--tool-profile",
                 '{"include": ["sql.*"]}']) == 0
    assert main(["project-instructions", "set", "--tenant", "acme", "--project", "vendas", "--instructions",
                 "Responda em reais."]) == 0
    with psycopg.connect(empty_db_url) as conn:
        registry = Registry(conn, actor="dba")
        for (conversation_id,) in conn.execute("SELECT id FROM conversations").fetchall():
            registry.adopt(conversation_id)
    capsys.readouterr()
    assert counts(empty_db_url)["agent_adoptions"] > 0
    return empty_db_url


def test_what_each_downgrade_drops_is_read_from_its_sql():
    found = {r: {(d.table, d.column) for d in migrate.dropped_by(r)} for r in migrate.revisions()}
    assert {r: found[r] for r in found if r <= "0006"} == {
        "0001": {(t, None) for t in ("conversations", "agent_defaults", "agent_optouts", "agents", "projects",
                                     "tenants")},
        "0002": {("agent_versions", None)},
        "0003": set(),
        "0004": {("agent_adoptions", None)},
        "0005": {("projects", "instruction_file"), ("agents", "tool_profile")},
        "0006": set(),                                            # constraints only: no data
    }


def test_a_revision_below_the_database_is_refused_without_downgrade(seeded, capsys):
    before = counts(seeded)
    code, out, err = run(capsys, "migrate", "--revision", "0003")
    assert code == 2 and out == ""
    assert f"the database is at {HEAD}; 0003 is below it" in err and "--downgrade" in err
    assert len(err.strip().splitlines()) == 1 and "migrated" not in err
    assert revision(seeded) == HEAD and counts(seeded) == before
    with pytest.raises(MigrationRefused, match="is below it"):
        migrate.upgrade(seeded, "0003")                          # the Python API refuses it too
    assert revision(seeded) == HEAD


def test_at_the_target_it_says_already_there(seeded, capsys):
    code, out, _ = run(capsys, "migrate")
    assert code == 0 and out.startswith(f"Database already at {HEAD}; no revision to apply")
    code, out, _ = run(capsys, "migrate", "--revision", HEAD, "--downgrade")
    assert code == 0 and out == f"Database already at {HEAD}; nothing to downgrade.\n"


def test_an_upgrade_reports_the_revisions_read_back(empty_db_url, monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    code, out, _ = run(capsys, "migrate", "--revision", "0003")
    assert code == 0 and out == "Database migrated from base to 0003.\n"
    assert revision(empty_db_url) == "0003"
    code, out, _ = run(capsys, "migrate", "--revision", "+1")
    assert code == 0 and out == "Database migrated from 0003 to 0004.\n"
    code, out, _ = run(capsys, "migrate")
    assert code == 0 and out == f"Database migrated from 0004 to {HEAD}.\n"
    code, _, err = run(capsys, "migrate", "--revision", "0004", "--downgrade", "--yes")
    assert code == 0
    code, out, err = run(capsys, "migrate", "--revision", HEAD, "--downgrade")
    assert code == 2 and f"{HEAD} is above it" in err and revision(empty_db_url) == "0004"


@pytest.mark.parametrize("bad", ["9999", "abc", "-99", "+99", ""])
def test_an_unknown_revision_is_one_line(seeded, capsys, bad):
    code, out, err = run(capsys, "migrate", "--revision", bad)
    assert code == 2 and out == "" and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert revision(seeded) == HEAD


def test_a_downgrade_names_what_it_drops_and_refuses_without_a_terminal(seeded, capsys, monkeypatch):
    before = counts(seeded)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))          # no terminal: never asked, never assumed
    code, out, err = run(capsys, "migrate", "--revision", "0003", "--downgrade")
    assert code == 1 and "not confirmed: nothing was changed; re-run with --yes" in err
    assert f"Downgrade from {HEAD} to 0003 drops:" in out
    assert f"table agent_adoptions: {before['agent_adoptions']} row(s)" in out
    assert "column agents.tool_profile: 1 row(s) with a value" in out
    assert "column projects.instruction_file: 1 row(s) with a value" in out
    assert "table agent_versions" not in out                      # 0002 is not undone
    assert "column agent_versions.scope_tenant_id: a copy of agents.scope_tenant_id, nothing lost" in out  # 0012
    assert revision(seeded) == HEAD and counts(seeded) == before


@pytest.mark.parametrize("answer, done", [("n\n", False), ("\n", False), ("y\n", True), ("", False)])
def test_at_a_terminal_it_asks(seeded, capsys, monkeypatch, answer, done):
    stdin = io.StringIO(answer)
    stdin.isatty = lambda: True                                   # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, err = run(capsys, "migrate", "--revision", "0004", "--downgrade")
    assert "column agents.tool_profile: 1 row(s) with a value" in out
    assert (code, revision(seeded)) == ((0, "0004") if done else (1, HEAD)), (out, err)
    assert ("Database downgraded from" in out) == done


def test_yes_downgrades_and_it_is_said_as_read_back(seeded, capsys):
    code, out, err = run(capsys, "migrate", "--revision", "0001", "--downgrade", "--yes")
    assert code == 0, err
    assert "table agent_versions:" in out and "table agent_adoptions:" in out
    assert out.endswith(f"Database downgraded from {HEAD} to 0001.\n")
    assert revision(seeded) == "0001"
    with psycopg.connect(seeded) as conn:
        assert conn.execute("SELECT to_regclass('agent_adoptions'), to_regclass('agent_versions')").fetchone() == \
            (None, None)
    code, out, _ = run(capsys, "migrate")
    assert code == 0 and out == f"Database migrated from 0001 to {HEAD}.\n"


def test_a_downgrade_that_drops_no_data_does_not_ask(seeded, capsys, monkeypatch):
    # The newest revision whose undoing drops no table or column; later ones (0008 drops the scopes'
    # groups and terms, 0009 the demo's conventions) are undone first, with --yes.
    revisions = migrate.revisions()
    newest = next(r for r in reversed(revisions) if not migrate.dropped_by(r))
    previous = revisions[revisions.index(newest) - 1]
    if newest != revisions[-1]:
        assert run(capsys, "migrate", "--revision", newest, "--downgrade", "--yes")[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "migrate", "--revision", previous, "--downgrade")
    assert code == 0, err
    assert "no table or column is dropped" in out and revision(seeded) == previous


def test_the_downgrade_below_0008_names_the_groups_it_drops(seeded, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "migrate", "--revision", "0007", "--downgrade")
    assert code != 0 and revision(seeded) == migrate.revisions()[-1]
    assert "table dataset_groups: 3 row(s)" in out and "column agent_adoptions.version" in out, out


def test_empty_tables_are_named_but_cost_no_question(empty_db_url, monkeypatch, capsys):
    monkeypatch.setenv("REGISTRY_DATABASE_URL", empty_db_url)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    migrate.upgrade(empty_db_url, "head")
    plan = migrate.plan(empty_db_url, "base")
    assert plan.direction == "downgrade" and not plan.loses_data
    assert Dropped("0004", "agent_adoptions", None, 0) in plan.drops
    code, out, _ = run(capsys, "migrate", "--revision", "base", "--downgrade")
    assert code == 0 and "table tenants: 0 row(s)" in out and out.endswith(f"downgraded from {HEAD} to base.\n")
    assert revision(empty_db_url) is None


def test_the_offline_downgrade_script_needs_no_database(monkeypatch, capsys):
    monkeypatch.delenv("REGISTRY_DATABASE_URL", raising=False)
    monkeypatch.setenv("REGISTRY_DATA_DIR", "/nonexistent/never-started")
    code, out, err = run(capsys, "migrate", "--sql", "--downgrade", "--revision", "0003")
    assert code == 0, err
    assert "DROP TABLE agent_adoptions" in out and "DROP COLUMN tool_profile" in out and "COMMIT;" in out
    assert "DROP TABLE agent_versions" not in out
    code, out, err = run(capsys, "migrate", "--sql", "--revision", "0003")
    assert code == 0 and "CREATE TABLE agents" in out and "CREATE TABLE agent_adoptions" not in out


@pytest.mark.parametrize("revision", ["head", HEAD, "9999"])
def test_an_offline_downgrade_needs_a_revision_below_head(monkeypatch, capsys, revision):
    monkeypatch.delenv("REGISTRY_DATABASE_URL", raising=False)
    code, out, err = run(capsys, "migrate", "--sql", "--downgrade", "--revision", revision)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err


def _edit_everything(url: str) -> None:
    """A new version of every agent and convention, kept by their history triggers."""
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE agents SET instructions = instructions || ' (revista)'")
        conn.execute("UPDATE conventions SET body = body || ' (revista)'")
        assert conn.execute("SELECT (SELECT count(*) FROM agent_versions), (SELECT count(*) FROM convention_versions)"
                            ).fetchone() >= (1, 1)


def test_a_column_that_copied_its_parents_drops_no_data(seeded, capsys, monkeypatch):
    """Revision 0012's down file marks the history's scope_tenant_id as a copy of its parent's (the
    foreign key kept them equal): undoing it is named, costs no question and keeps every version."""
    assert {(d.table, d.column, d.copy_of) for d in migrate.dropped_by("0012")} == {
        ("agent_versions", "scope_tenant_id", "agents.scope_tenant_id"),
        ("convention_versions", "scope_tenant_id", "conventions.scope_tenant_id")}
    # Revision 0014's agents.key_tenant_id, generated from tenant_id like scope_tenant_id, the same.
    assert {(d.table, d.column, d.copy_of) for d in migrate.dropped_by("0014")} == {
        ("agents", "key_tenant_id", "agents.scope_tenant_id")}
    assert all(d.copy_of is None for r in migrate.revisions() if r not in ("0012", "0014") for d in migrate.dropped_by(r))
    _edit_everything(seeded)
    before = counts(seeded)
    plan = migrate.plan(seeded, "0011")
    assert plan.drops and not plan.loses_data
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))          # no terminal, no --yes
    code, out, err = run(capsys, "migrate", "--revision", "0011", "--downgrade")
    assert code == 0, err
    assert "column agent_versions.scope_tenant_id: a copy of agents.scope_tenant_id, nothing lost  (revision 0012)" in out
    assert "Drop this data?" not in out and revision(seeded) == "0011" and counts(seeded) == before


def test_twin_unmarked_the_copied_column_counts_as_data(seeded, capsys, monkeypatch, tmp_path):
    """Without the mark the same downgrade counts every version's value and refuses without --yes."""
    _edit_everything(seeded)
    for script in migrate.MIGRATION_SQL_DIR.glob("*.sql"):  # the revisions above 0012 undone on the way
        (tmp_path / script.name).write_text(script.read_text(encoding="utf-8"), encoding="utf-8")
    down = (migrate.MIGRATION_SQL_DIR / "0012.down.sql").read_text(encoding="utf-8")
    (tmp_path / "0012.down.sql").write_text(down.replace("-- derived column", "-- column"), encoding="utf-8")
    monkeypatch.setattr(migrate, "MIGRATION_SQL_DIR", tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "migrate", "--revision", "0011", "--downgrade")
    assert code == 1 and "not confirmed" in err
    assert "column agent_versions.scope_tenant_id:" in out and "row(s) with a value" in out
    assert revision(seeded) == HEAD
