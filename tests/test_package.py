"""The wheel carries what the package needs: sql/, migrations/, seeds/ and alembic.ini, and an
installed copy works from any folder, with no checkout in sight.

The wheel is built offline from a copy of the checkout (no build isolation: the setuptools
`./dev` installed does it), so an in-tree build/ folder can neither leak into it nor be left
behind. The installed copy is a `pip install --target` of that wheel, put first on PYTHONPATH:
the dependencies come from this environment, the `registry` package from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from registry.paths import ROOT

DISTRIBUTION = "pg-agent-registry"
DATA_FOLDERS = ("sql", "migrations", "seeds")
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".registry")


def checkout_data_files() -> set[str]:
    """Every file of the top-level data folders, plus alembic.ini, as wheel entry names."""
    found = {"alembic.ini"}
    for folder in DATA_FOLDERS:
        found |= {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts}
    return {f"registry/_data/{name}" for name in found}


def pip(*args: str) -> None:
    result = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", str(work / "dist"), str(source))
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    pip("install", "--no-deps", "--no-index", "--target", str(site), str(wheel))
    return site


def test_the_wheel_holds_every_data_file(wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    bundled = {name for name in names if name.startswith("registry/_data/")}
    assert bundled == checkout_data_files()
    assert {"registry/_data/sql/tables.sql", "registry/_data/migrations/env.py",
            "registry/_data/seeds/product_rules.md"} <= bundled


def test_the_wheel_holds_every_python_module(wheel: Path):
    """A subpackage missing from [tool.setuptools] packages (registry/cli/) would leave the
    installed `registry` command without its commands."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "registry").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert modules - names == set()
    assert "registry/cli/__main__.py" in names


def test_the_distribution_name_is_ours_and_the_command_is_registry(wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(info).decode())
        entry_points = archive.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert metadata["Name"] == DISTRIBUTION
    assert "registry = registry.cli:main" in entry_points


def run_installed(site: Path, folder: Path, *args: str, url: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REGISTRY_")}
    env |= {"PYTHONPATH": str(site), "REGISTRY_DATABASE_URL": url, "REGISTRY_DATA_DIR": str(folder / "no-server")}
    return subprocess.run([sys.executable, "-m", "registry.cli", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_installed_package_reads_its_own_resources(installed: Path, tmp_path: Path):
    script = "from registry import paths; print(paths.ROOT); print(paths.ALEMBIC_INI.is_file())"
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(installed)), timeout=60)
    assert result.stdout.split() == [str(installed / "registry" / "_data"), "True"], result.stderr


def test_migrate_sql_works_from_an_empty_folder(installed: Path, tmp_path: Path):
    result = run_installed(installed, tmp_path, "migrate", "--sql")
    assert result.returncode == 0, result.stderr
    assert "CREATE TABLE agents" in result.stdout and "CREATE OR REPLACE VIEW effective_agents" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_migrate_seed_and_prompt_work_from_an_empty_folder(installed: Path, tmp_path: Path, empty_db_url: str):
    for args in (["migrate"], ["seed"], ["prompt", "--conversation", "1"]):
        result = run_installed(installed, tmp_path, *args, url=empty_db_url)
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert "REGRAS DO PRODUTO" in result.stdout  # seeds/product_rules.md, from the wheel
    assert list(tmp_path.iterdir()) == []


def test_a_checkout_reads_its_top_level_folders():
    assert (ROOT / "alembic.ini").is_file() and (ROOT / "sql" / "tables.sql").is_file()
    assert ROOT == Path(__file__).resolve().parent.parent
