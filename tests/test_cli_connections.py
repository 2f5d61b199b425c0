"""One connection per command, confirmations included: a change that previews its impact and
asks first does both on the connection it opened (issue 13, requirement 5)."""

from __future__ import annotations

import pytest

from registry import db
from registry.cli import main


@pytest.fixture
def connections(demo, monkeypatch) -> list[object]:
    opened: list[object] = []
    connect = db.connect

    def counting(*args, **kwargs):
        conn = connect(*args, **kwargs)
        opened.append(conn)
        return conn
    monkeypatch.setattr(db, "connect", counting)
    return opened


@pytest.mark.parametrize("argv", [
    ["default", "set", "", "--tenant", "acme", "--project", "vendas", "--yes"],
    ["default", "clear", "--tenant", "acme", "--project", "vendas", "--yes"],
    ["optout", "add", "--tenant", "acme", "--project", "financeiro", "--agent", "analista-financeiro", "--yes"],
    ["agent", "disable", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro", "--yes"],
    ["agent", "delete", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro", "--yes"],
    ["--as-tenant", "acme", "default", "set", "", "--tenant", "acme", "--yes"],
    ["--as-tenant", "acme", "agents", "--tenant", "acme"],
    ["conversation", "show", "1"],
])
def test_a_command_opens_one_connection(connections, capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    assert len(connections) == 1
    assert connections[0].closed


def test_a_refused_confirmation_changes_nothing_on_that_one_connection(connections, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["agent", "delete", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro"]) == 1
    assert "not confirmed" in capsys.readouterr().err
    assert len(connections) == 1 and connections[0].closed
    assert main(["agent", "show", "analista-de-caixa", "--tenant", "acme", "--project", "financeiro"]) == 0
