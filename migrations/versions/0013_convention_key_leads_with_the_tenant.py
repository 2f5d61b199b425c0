"""convention_versions' foreign key targets a conventions key that leads with scope_tenant_id (hostile-tenant round 9, R17).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01

The SQL lives in migrations/sql/0013.up.sql and 0013.down.sql.
"""

from registry.migrate import sql_revision

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
