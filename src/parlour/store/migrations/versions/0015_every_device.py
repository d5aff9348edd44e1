"""One player on every device (issue 52, decision 0064): passkeys, their challenges, link codes, the
browsers' names, the players' WebAuthn handles and the erased players' rows

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("handle", sa.String(length=32), nullable=True))
    op.add_column("players", sa.Column("erased_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_players_handle"), "players", ["handle"], unique=True)
    op.add_column("player_tokens", sa.Column("agent", sa.String(length=60), nullable=True))
    op.add_column("player_tokens", sa.Column("signed_in_by", sa.String(length=16), nullable=True))
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(length=1400), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("backed_up", sa.Boolean(), nullable=False),
        sa.Column("agent", sa.String(length=60), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_passkeys_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkeys")),
    )
    op.create_index(op.f("ix_passkeys_player_id"), "passkeys", ["player_id"], unique=False)
    op.create_table(
        "auth_challenges",
        sa.Column("challenge_hash", sa.String(length=64), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_auth_challenges_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("challenge_hash", name=op.f("pk_auth_challenges")),
    )
    op.create_index(op.f("ix_auth_challenges_expires_at"), "auth_challenges", ["expires_at"], unique=False)
    op.create_index(op.f("ix_auth_challenges_player_id"), "auth_challenges", ["player_id"], unique=False)
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_link_codes_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_link_codes")),
    )
    op.create_index(op.f("ix_link_codes_player_id"), "link_codes", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_link_codes_player_id"), table_name="link_codes")
    op.drop_table("link_codes")
    op.drop_index(op.f("ix_auth_challenges_player_id"), table_name="auth_challenges")
    op.drop_index(op.f("ix_auth_challenges_expires_at"), table_name="auth_challenges")
    op.drop_table("auth_challenges")
    op.drop_index(op.f("ix_passkeys_player_id"), table_name="passkeys")
    op.drop_table("passkeys")
    # Plain DROP COLUMN (SQLite 3.35+): a batch copy of ``players`` would drop the table, and its
    # cascades would empty every table that names a player.
    op.drop_column("player_tokens", "signed_in_by")
    op.drop_column("player_tokens", "agent")
    op.drop_index(op.f("ix_players_handle"), table_name="players")
    op.drop_column("players", "erased_at")
    op.drop_column("players", "handle")
