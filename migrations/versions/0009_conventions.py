"""Directory-scoped conventions: layered like agents, scoped by directory and language, with history.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30

The SQL lives in migrations/sql/0009.up.sql and 0009.down.sql.
"""

from registry.migrate import sql_revision

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
