"""Tenant isolation: roles, ownership, row-level security.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29

The SQL lives in migrations/sql/0003.up.sql and 0003.down.sql.
"""

from alembic import op

from registry.migrate import run_revision_file

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_file(op, f"{revision}.up.sql")


def downgrade() -> None:
    run_revision_file(op, f"{revision}.down.sql")
