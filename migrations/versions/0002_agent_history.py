"""Agent history: agent_versions, kept by a trigger on agents.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

The SQL lives in migrations/sql/0002.up.sql and 0002.down.sql.
"""

from alembic import op

from registry.migrate import run_revision_file

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_file(op, f"{revision}.up.sql")


def downgrade() -> None:
    run_revision_file(op, f"{revision}.down.sql")
