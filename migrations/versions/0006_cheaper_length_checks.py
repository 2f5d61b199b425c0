"""Cheaper NFC length checks (same rule).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29

The SQL lives in migrations/sql/0006.up.sql and 0006.down.sql.
"""

from registry.migrate import sql_revision

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
