"""The conversations' primary key holds the tenant, (id, tenant_id), and their id is GENERATED ALWAYS (hostile-tenant round 10, R01).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01

The SQL lives in migrations/sql/0015.up.sql and 0015.down.sql.
"""

from registry.migrate import sql_revision

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
