"""friends' tables: seats, settings and the current match of each table; games know their table

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name=op.f("fk_tables_host_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("code", name=op.f("uq_tables_code")),
    )
    op.create_index("ix_tables_listed_phase", "tables", ["listed", "phase"], unique=False)
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("table_id", sa.String(length=32), nullable=True))
        games.create_index("ix_games_table_id", ["table_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_table_id")
        games.drop_column("table_id")
    op.drop_index("ix_tables_listed_phase", table_name="tables")
    op.drop_table("tables")
