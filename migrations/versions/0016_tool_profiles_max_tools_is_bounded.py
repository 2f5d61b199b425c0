"""A tool profile's max_tools is at most 10,000 (hostile-tenant round 14, A11).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02

The SQL lives in migrations/sql/0016.up.sql and 0016.down.sql.
"""

from registry.migrate import sql_revision

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
