"""Tenant isolation: roles, ownership, row-level security.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29

The SQL lives in migrations/sql/0003.up.sql and 0003.down.sql.
"""

from registry.migrate import sql_revision

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
