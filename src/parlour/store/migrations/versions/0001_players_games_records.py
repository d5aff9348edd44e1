"""players, games, records

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("recovery_hash", sa.String(length=64), nullable=False),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("recovery_hash", name=op.f("uq_players_recovery_hash")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rules_key", sa.String(length=16), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("numbered", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_games_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_numbered", ["rules_key", "numbered"], unique=False)
        batch_op.create_index("ix_games_player_status", ["player_id", "status"], unique=False)

    op.create_table(
        "numbered_records",
        sa.Column("rules_key", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("best_left", sa.Integer(), nullable=False),
        sa.Column("best_moves", sa.Integer(), nullable=False),
        sa.Column("holder_id", sa.Integer(), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_winner_id", sa.Integer(), nullable=True),
        sa.Column("first_won_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("plays", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_winner_id"],
            ["players.id"],
            name=op.f("fk_numbered_records_first_winner_id_players"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["holder_id"],
            ["players.id"],
            name=op.f("fk_numbered_records_holder_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("rules_key", "number", name=op.f("pk_numbered_records")),
    )
    op.create_table(
        "personal_bests",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("rules_key", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("best_left", sa.Integer(), nullable=False),
        sa.Column("best_moves", sa.Integer(), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_personal_bests_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "rules_key", "number", name=op.f("pk_personal_bests")),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_tokens_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_player_tokens")),
    )
    with op.batch_alter_table("player_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_tokens_player_id"), ["player_id"], unique=False)

    op.create_table(
        "game_moves",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("index", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("move", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_moves_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "index", name=op.f("pk_game_moves")),
    )


def downgrade() -> None:
    op.drop_table("game_moves")
    with op.batch_alter_table("player_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_tokens_player_id"))

    op.drop_table("player_tokens")
    op.drop_table("personal_bests")
    op.drop_table("numbered_records")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_player_status")
        batch_op.drop_index("ix_games_numbered")

    op.drop_table("games")
    op.drop_table("players")
