"""daily_deals and daily_results: one secret deal a day per game and rule set, and each player's
counted attempt at it

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rules_key", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "rules_key", "day", name=op.f("pk_daily_deals")),
    )
    op.create_table(
        "daily_results",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rules_key", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("standing", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_daily_results_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_daily_results_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game", "rules_key", "day", "player_id", name=op.f("pk_daily_results")),
    )
    op.create_index("ix_daily_results_day", "daily_results", ["game", "rules_key", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_results_day", table_name="daily_results")
    op.drop_table("daily_results")
    op.drop_table("daily_deals")
