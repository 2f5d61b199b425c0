"""Every scope index carries the tenant its read policy tests (hostile-tenant round 7, #20-#23).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01

The SQL lives in migrations/sql/0011.up.sql and 0011.down.sql.
"""

from registry.migrate import sql_revision

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
