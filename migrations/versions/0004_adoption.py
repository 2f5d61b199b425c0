"""Adoption: agent_adoptions, counted without hot rows.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

The SQL lives in migrations/sql/0004.up.sql and 0004.down.sql.
"""

from registry.migrate import sql_revision

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
