"""game secrets (fairness salts, computer players' seeds), token ages and origins

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("secret", sa.JSON(), nullable=True))
    with op.batch_alter_table("player_tokens") as tokens:
        tokens.add_column(sa.Column("used_at", sa.DateTime(timezone=True), nullable=True))
        tokens.add_column(sa.Column("recovery_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player_tokens") as tokens:
        tokens.drop_column("recovery_hash")
        tokens.drop_column("used_at")
    with op.batch_alter_table("games") as games:
        games.drop_column("secret")
