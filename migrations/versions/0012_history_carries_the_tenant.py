"""agent_versions and convention_versions carry their row's scope_tenant_id, first in their keys (hostile-tenant round 7, #20-#23).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01

The SQL lives in migrations/sql/0012.up.sql and 0012.down.sql.
"""

from registry.migrate import sql_revision

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
