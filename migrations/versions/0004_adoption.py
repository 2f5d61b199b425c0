"""Adoption: agent_adoptions, counted without hot rows.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

The SQL lives in migrations/sql/0004.up.sql and 0004.down.sql.
"""

from alembic import op

from registry.migrate import run_revision_file

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_file(op, f"{revision}.up.sql")


def downgrade() -> None:
    run_revision_file(op, f"{revision}.down.sql")
