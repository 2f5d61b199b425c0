"""The hostile tenant: no temporary objects, tenant-carrying keys, size caps.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29

The SQL lives in migrations/sql/0007.up.sql and 0007.down.sql.
"""

from registry.migrate import sql_revision

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
