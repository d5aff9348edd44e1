"""games.deal_drawn and daily_players: which deals the server drew from a secret (a challenge of them is
ranked), and the new players each address has ranked at a day's deal (decision 0060)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("deal_drawn", sa.Boolean(), nullable=True))
    op.create_table(
        "daily_players",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_daily_players_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game", "day", "address", "player_id", name=op.f("pk_daily_players")),
    )


def downgrade() -> None:
    op.drop_table("daily_players")
    # Not a batch: on SQLite that copies the table, and dropping the old copy would cascade to every
    # row that refers to it. SQLite (3.35 and later) drops a plain column in place.
    op.drop_column("games", "deal_drawn")
