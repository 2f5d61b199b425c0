"""Agent history: agent_versions, kept by a trigger on agents.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

The SQL lives in migrations/sql/0002.up.sql and 0002.down.sql.
"""

from registry.migrate import sql_revision

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
