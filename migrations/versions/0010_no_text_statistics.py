"""No planner statistics on customer-written text (hostile-tenant round 6, #1).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01

The SQL lives in migrations/sql/0010.up.sql and 0010.down.sql.
"""

from registry.migrate import sql_revision

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
