"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

The SQL lives in migrations/sql/${up_revision}.up.sql and .down.sql.
"""

from registry.migrate import sql_revision

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}

upgrade, downgrade = sql_revision(revision)
