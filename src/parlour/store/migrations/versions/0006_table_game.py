"""tables: the game played at each table (every table before this one is a Thirteen table)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as tables:
        tables.add_column(sa.Column("game", sa.String(32), nullable=False, server_default="thirteen"))
        tables.drop_index("ix_tables_listed_phase")
        tables.create_index("ix_tables_game_listed_phase", ["game", "listed", "phase"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as tables:
        tables.drop_index("ix_tables_game_listed_phase")
        tables.create_index("ix_tables_listed_phase", ["listed", "phase"])
        tables.drop_column("game")
