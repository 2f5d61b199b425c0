"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

The SQL lives in migrations/sql/${up_revision}.up.sql and .down.sql.
"""

from alembic import op

from registry.migrate import run_revision_file

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    run_revision_file(op, f"{revision}.up.sql")


def downgrade() -> None:
    run_revision_file(op, f"{revision}.down.sql")
