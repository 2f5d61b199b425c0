"""Context assembly: agents.tool_profile and projects.instruction_file.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29

The SQL lives in migrations/sql/0005.up.sql and 0005.down.sql.
"""

from alembic import op

from registry.migrate import run_revision_file

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_file(op, f"{revision}.up.sql")


def downgrade() -> None:
    run_revision_file(op, f"{revision}.down.sql")
