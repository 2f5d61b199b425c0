"""Context assembly: agents.tool_profile and projects.instruction_file.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29

The SQL lives in migrations/sql/0005.up.sql and 0005.down.sql.
"""

from registry.migrate import sql_revision

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
