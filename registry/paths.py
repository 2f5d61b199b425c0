"""Where the project's non-Python files live: sql/, migrations/, seeds/ and alembic.ini.

They stay at the repository's top level, where DBAs and reviewers look for them. The wheel
carries them as package resources under `registry/_data/` (pyproject.toml maps that package
to the repository's top level), with the same layout, so alembic.ini's `%(here)s/migrations`
holds in both places. An editable install (`./dev`) imports `registry/` from the checkout,
where `_data/` does not exist: the files are then the checkout's own, one folder up.

Alembic loads env.py and the revisions by file name, so the package must be installed as
files (a wheel, not a zip): the resources are real paths either way.
"""

from importlib.resources import files
from pathlib import Path


def _data_root() -> Path:
    package = Path(str(files("registry")))
    bundled = package / "_data"
    return bundled if (bundled / "alembic.ini").is_file() else package.parent


ROOT = _data_root()
SQL_DIR = ROOT / "sql"
MIGRATIONS_DIR = ROOT / "migrations"
ALEMBIC_INI = ROOT / "alembic.ini"
SEEDS_DIR = ROOT / "seeds"
