"""The registry core: tenants, projects, agents in three layers, opt-outs, defaults, conversations.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

The SQL lives in migrations/sql/0001.up.sql and 0001.down.sql.
"""

from registry.migrate import sql_revision

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
