"""numbered records and personal bests: keyed by the game too, the result a standing of the game's own

Every record and personal best before this one is TriPeaks' (peak cards left, moves): the game becomes
``tripeaks`` and the standing ``[best_left, best_moves]``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import warnings

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

KEYS = {"numbered_records": ["rules_key", "number"], "personal_bests": ["player_id", "rules_key", "number"]}
NEW_KEYS = {
    "numbered_records": ["game", "rules_key", "number"],
    "personal_bests": ["player_id", "game", "rules_key", "number"],
}


def _array() -> str:
    return "json_build_array" if op.get_bind().dialect.name == "postgresql" else "json_array"


def _replace_key(table: str, columns: list[str]) -> None:
    """Make ``columns`` the primary key of ``table`` (inside a batch on SQLite, which rebuilds it)."""
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(f"pk_{table}", table, type_="primary")
        op.create_primary_key(f"pk_{table}", table, columns)
        return
    # SQLAlchemy warns that the rebuilt table's key differs from the reflected one: that is the change.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Table '_alembic_tmp_", sa.exc.SAWarning)
        with op.batch_alter_table(table, recreate="always") as batch:
            batch.create_primary_key(f"pk_{table}", columns)


def upgrade() -> None:
    for table in KEYS:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("game", sa.String(32), nullable=False, server_default="tripeaks"))
            batch.add_column(sa.Column("standing", sa.JSON(), nullable=True))
        op.execute(f"UPDATE {table} SET standing = {_array()}(best_left, best_moves)")
        with op.batch_alter_table(table) as batch:
            batch.alter_column("standing", existing_type=sa.JSON(), nullable=False)
            batch.drop_column("best_left")
            batch.drop_column("best_moves")
        _replace_key(table, NEW_KEYS[table])


def downgrade() -> None:
    # Only TriPeaks' records fit the old tables: another game's are dropped with the column.
    for table, key in KEYS.items():
        op.execute(f"DELETE FROM {table} WHERE game <> 'tripeaks'")
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("best_left", sa.Integer(), nullable=True))
            batch.add_column(sa.Column("best_moves", sa.Integer(), nullable=True))
        if op.get_bind().dialect.name == "postgresql":
            fields = "CAST(standing ->> 0 AS INTEGER)", "CAST(standing ->> 1 AS INTEGER)"
        else:
            fields = "json_extract(standing, '$[0]')", "json_extract(standing, '$[1]')"
        op.execute(f"UPDATE {table} SET best_left = {fields[0]}, best_moves = {fields[1]}")
        with op.batch_alter_table(table) as batch:
            batch.alter_column("best_left", existing_type=sa.Integer(), nullable=False)
            batch.alter_column("best_moves", existing_type=sa.Integer(), nullable=False)
            batch.drop_column("standing")
        _replace_key(table, key)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("game")
