"""challenges and challenge_attempts: a finished game offered to friends by link, and their answers

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_challenges_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"],
            ["players.id"],
            name=op.f("fk_challenges_challenger_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("game_id", name=op.f("uq_challenges_game_id")),
    )
    op.create_index(op.f("ix_challenges_challenger_id"), "challenges", ["challenger_id"], unique=False)
    op.create_table(
        "challenge_attempts",
        sa.Column("challenge_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_challenge_attempts_challenge_id_challenges"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_challenge_attempts_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_challenge_attempts_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("challenge_id", "player_id", name=op.f("pk_challenge_attempts")),
    )
    op.create_index(op.f("ix_challenge_attempts_game_id"), "challenge_attempts", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_challenge_attempts_game_id"), table_name="challenge_attempts")
    op.drop_table("challenge_attempts")
    op.drop_index(op.f("ix_challenges_challenger_id"), table_name="challenges")
    op.drop_table("challenges")
