"""Puzzles (issue 53, decision 0065): the puzzles of each game with their ratings, players' attempts,
their puzzle ratings, and the puzzle of each day

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("answer", sa.String(length=32), nullable=False),
        sa.Column("themes", sa.JSON(), nullable=False),
        sa.Column("difficulty", sa.String(length=8), nullable=False),
        sa.Column("line", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
    )
    op.create_index("ix_puzzles_game_rating", "puzzles", ["game", "rating"], unique=False)
    op.create_table(
        "daily_puzzles",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["puzzle_id"], ["puzzles.id"], name=op.f("fk_daily_puzzles_puzzle_id_puzzles"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game", "day", name=op.f("pk_daily_puzzles")),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(length=32), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("player_rating", sa.Float(), nullable=True),
        sa.Column("player_rd", sa.Float(), nullable=True),
        sa.Column("player_volatility", sa.Float(), nullable=True),
        sa.Column("puzzle_rating", sa.Float(), nullable=True),
        sa.Column("puzzle_rd", sa.Float(), nullable=True),
        sa.Column("puzzle_volatility", sa.Float(), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_puzzle_attempts_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_puzzle_attempts_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_attempts")),
    )
    op.create_index(op.f("ix_puzzle_attempts_player_id"), "puzzle_attempts", ["player_id"], unique=False)
    op.create_index(op.f("ix_puzzle_attempts_puzzle_id"), "puzzle_attempts", ["puzzle_id"], unique=False)
    op.create_table(
        "puzzle_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), server_default="0", nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_puzzle_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_puzzle_ratings")),
    )


def downgrade() -> None:
    op.drop_table("puzzle_ratings")
    op.drop_index(op.f("ix_puzzle_attempts_puzzle_id"), table_name="puzzle_attempts")
    op.drop_index(op.f("ix_puzzle_attempts_player_id"), table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("daily_puzzles")
    op.drop_index("ix_puzzles_game_rating", table_name="puzzles")
    op.drop_table("puzzles")
