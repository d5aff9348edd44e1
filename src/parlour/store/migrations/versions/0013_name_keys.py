"""players.name_key: the skeleton of a display name, unique, so that no two players hold names people
would read as the same (issue 48; parlour.store.names)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from parlour.store.names import skeleton

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("name_key", sa.String(length=64), nullable=True))
    # The names already taken keep their key, the oldest player first; a later one of the same skeleton
    # keeps its name without a key (it is asked for another when it next renames).
    connection = op.get_bind()
    taken: set[str] = set()
    rows = connection.execute(sa.text("SELECT id, name FROM players WHERE name IS NOT NULL ORDER BY id"))
    for player_id, name in list(rows):
        key = skeleton(name)
        if key and key not in taken:
            taken.add(key)
            connection.execute(
                sa.text("UPDATE players SET name_key = :key WHERE id = :id"), {"key": key, "id": player_id}
            )
    op.create_index(op.f("ix_players_name_key"), "players", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index(op.f("ix_players_name_key"), table_name="players")
    # Not a batch: on SQLite that copies the table, and dropping the old copy would cascade to every
    # row that refers to it. SQLite (3.35 and later) drops a plain column in place.
    op.drop_column("players", "name_key")
