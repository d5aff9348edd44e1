"""Play with anyone (issue 50, decision 0062): seat claims at public tables, rated rounds, people's
ratings and their history

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("name_changed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "name_reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["reported_id"],
            ["players.id"],
            name=op.f("fk_name_reports_reported_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["reporter_id"],
            ["players.id"],
            name=op.f("fk_name_reports_reporter_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_name_reports")),
        sa.UniqueConstraint("reporter_id", "reported_id", "name", name="uq_name_reports_reporter"),
    )
    op.create_index(op.f("ix_name_reports_reported_id"), "name_reports", ["reported_id"], unique=False)
    op.create_table(
        "blocked_names",
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name_key", name=op.f("pk_blocked_names")),
    )
    op.add_column("tables", sa.Column("quick_key", sa.String(length=64), nullable=True))
    op.add_column("tables", sa.Column("watchers", sa.Integer(), server_default="0", nullable=False))
    op.create_index(op.f("ix_tables_quick_key"), "tables", ["quick_key"], unique=False)
    op.create_table(
        "seat_claims",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seated", sa.Boolean(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_seat_claims_player_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_seat_claims_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_seat_claims")),
        sa.UniqueConstraint("table_id", "seat", name="uq_seat_claims_table_seat"),
    )
    op.create_index(op.f("ix_seat_claims_table_id"), "seat_claims", ["table_id"], unique=False)
    op.create_table(
        "rated_rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("order", sa.JSON(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rated_rounds")),
        sa.UniqueConstraint("game_id", "round", name="uq_rated_rounds_game_round"),
    )
    op.create_index(op.f("ix_rated_rounds_played_at"), "rated_rounds", ["played_at"], unique=False)
    op.create_table(
        "rating_changes",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_rating_changes_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rated_rounds.id"],
            name=op.f("fk_rating_changes_round_id_rated_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("round_id", "player_id", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        "ix_rating_changes_player_round", "rating_changes", ["player_id", "round_id"], unique=False
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_ratings")),
    )


def downgrade() -> None:
    op.drop_table("blocked_names")
    op.drop_index(op.f("ix_name_reports_reported_id"), table_name="name_reports")
    op.drop_table("name_reports")
    op.drop_column("players", "name_changed_at")
    op.drop_table("ratings")
    op.drop_index("ix_rating_changes_player_round", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index(op.f("ix_rated_rounds_played_at"), table_name="rated_rounds")
    op.drop_table("rated_rounds")
    op.drop_index(op.f("ix_seat_claims_table_id"), table_name="seat_claims")
    op.drop_table("seat_claims")
    op.drop_index(op.f("ix_tables_quick_key"), table_name="tables")
    op.drop_column("tables", "quick_key")
    op.drop_column("tables", "watchers")
