"""Where the project's non-Python files live.

The package is installed in editable mode (see README), so `sql/`, `migrations/` and
`seeds/` are read from the checkout beside it rather than copied into the package.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SQL_DIR = ROOT / "sql"
MIGRATIONS_DIR = ROOT / "migrations"
ALEMBIC_INI = ROOT / "alembic.ini"
SEEDS_DIR = ROOT / "seeds"
