"""`./dev` works from any folder: paths are read where it was called, .venv stays in the repository."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from registry.paths import ROOT
from registry.seeding import load_seeds

DEV = ROOT / "dev"

pytestmark = pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "registry").is_file(),
                                reason="./dev has not set up .venv in this checkout")


def run_dev(folder: Path, *args: str, url: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REGISTRY_DATABASE_URL=url)
    return subprocess.run([str(DEV), *args], cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_export_then_import_read_paths_where_dev_was_called(db, db_url, tmp_path):
    load_seeds(db, demo=False)
    exported = run_dev(tmp_path, "export", "myexport", url=db_url)
    assert exported.returncode == 0, exported.stderr
    assert sorted(p.name for p in (tmp_path / "myexport" / "official").iterdir()) == [
        "analista-financeiro.md", "resumo-para-diretoria.md"]
    assert not (ROOT / "myexport").exists()

    good = tmp_path / "good"
    good.mkdir()
    (good / "a.md").write_text("---\nslug: caixa-semanal\nname: Caixa semanal\ntenant: acme\n---\n"
                               "Mostre o saldo semana a semana.\n", encoding="utf-8")
    db.execute("INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme')")
    imported = run_dev(tmp_path, "import", "./good", url=db_url)
    assert imported.returncode == 0, imported.stderr
    assert db.execute("SELECT count(*) FROM agents WHERE slug = 'caixa-semanal'").fetchone() == (1,)


def test_a_test_path_is_read_where_dev_was_called():
    here = Path(__file__).resolve()
    collected = run_dev(here.parent.parent.parent, "test", "--collect-only", "-q",
                        f"{ROOT.name}/tests/{here.name}")
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert "test_export_then_import_read_paths_where_dev_was_called" in collected.stdout
