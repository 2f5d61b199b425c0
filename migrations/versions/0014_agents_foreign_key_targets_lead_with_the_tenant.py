"""The agents' foreign-key targets lead with key_tenant_id, a copy of the tenant the read policy tests and no resolution names (hostile-tenant round 9, R16).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01

The SQL lives in migrations/sql/0014.up.sql and 0014.down.sql.
"""

from registry.migrate import sql_revision

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

upgrade, downgrade = sql_revision(revision)
