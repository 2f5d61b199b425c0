"""Requirements and availability: what a scope has, the version each conversation ran on.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30

The SQL lives in migrations/sql/0008.up.sql and 0008.down.sql.
"""

from registry.migrate import sql_revision

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
