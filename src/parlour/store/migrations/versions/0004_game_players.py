"""game players: the other people at a friends' table's match, with their seats and results

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_game_players_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_game_players")),
    )
    op.create_index(op.f("ix_game_players_player_id"), "game_players", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_game_players_player_id"), table_name="game_players")
    op.drop_table("game_players")
