"""game_reviews per seat: a game played by several people has a review for each of them

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every review kept so far is of a game played from one seat, seat 0 (TriPeaks'); batch mode
    # rebuilds the table where the database cannot change a primary key in place (SQLite).
    with op.batch_alter_table("game_reviews", recreate="auto") as batch:
        batch.add_column(sa.Column("seat", sa.Integer(), nullable=False, server_default="0"))
        batch.drop_constraint("pk_game_reviews", type_="primary")
        batch.create_primary_key("pk_game_reviews", ["game_id", "seat"])


def downgrade() -> None:
    # One review per game again: the reviews of the other seats go (a review is computed again when
    # asked for, so nothing is lost that cannot be made again).
    op.execute(sa.text("DELETE FROM game_reviews WHERE seat <> 0"))
    with op.batch_alter_table("game_reviews", recreate="auto") as batch:
        batch.drop_constraint("pk_game_reviews", type_="primary")
        batch.create_primary_key("pk_game_reviews", ["game_id"])
        batch.drop_column("seat")
