"""Numbered games' records: the locked update of a game's record and of the player's own best.

A result is a standing of the game's own (:data:`parlour.games.base.Standing`: numbers, lower is
better, compared in order). The record row of a game is created with an insert that ignores conflicts
and then read with a row lock (``FOR UPDATE`` on PostgreSQL; on SQLite the write transaction already
holds the database's write lock), so two players finishing the same game at the same moment are
applied one after the other: no update is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from parlour.games.base import Standing
from parlour.store.models import NumberedRecordRow, PersonalBestRow


def better(standing: Standing, than: Standing | list[int]) -> bool:
    """Return whether ``standing`` is strictly better (lower) than ``than``."""
    return tuple(standing) < tuple(than)


@dataclass(frozen=True)
class RecordChange:
    """What one result did to a numbered game's record and to the player's own best."""

    first_win: bool
    record_broken: bool
    holds_record: bool
    personal_best: bool


@dataclass(frozen=True)
class NumberedEntry:
    """One replayed result of numbered game ``number`` of ``game`` under ``rules_key``: its
    ``standing``, and whether it is a win (``won``)."""

    game: str
    rules_key: str
    number: int
    standing: Standing
    won: bool


def insert_ignoring_conflict(session: Session, table: object, values: dict[str, object]) -> bool:
    """Insert a row unless its primary key exists; return whether it was inserted."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    # RETURNING, not rowcount: drivers disagree on rowcount after ON CONFLICT DO NOTHING.
    columns = list(table.primary_key.columns)  # type: ignore[attr-defined]
    statement = insert(table).values(**values).on_conflict_do_nothing().returning(*columns)  # type: ignore[arg-type]
    return session.execute(statement).first() is not None


def apply_result(session: Session, result: NumberedEntry, player_id: int, now: datetime) -> RecordChange:
    """Apply one replayed result to the game's record and the player's best, inside ``session``."""
    game, rules_key, number, standing = result.game, result.rules_key, result.number, list(result.standing)
    created = insert_ignoring_conflict(
        session,
        NumberedRecordRow.__table__,
        {
            "game": game,
            "rules_key": rules_key,
            "number": number,
            "standing": standing,
            "holder_id": player_id,
            "set_at": now,
            "first_winner_id": player_id if result.won else None,
            "first_won_at": now if result.won else None,
            "plays": 1,
        },
    )
    record = session.execute(
        select(NumberedRecordRow)
        .where(
            NumberedRecordRow.game == game,
            NumberedRecordRow.rules_key == rules_key,
            NumberedRecordRow.number == number,
        )
        .with_for_update()
    ).scalar_one()
    if created:
        first_win, broken = result.won, False
    else:
        record.plays += 1
        broken = better(result.standing, record.standing)
        if broken:
            record.standing = standing
            record.holder_id, record.set_at = player_id, now
        first_win = result.won and record.first_winner_id is None
        if first_win:
            record.first_winner_id, record.first_won_at = player_id, now
    holds = record.holder_id == player_id

    personal = insert_ignoring_conflict(
        session,
        PersonalBestRow.__table__,
        {
            "player_id": player_id,
            "game": game,
            "rules_key": rules_key,
            "number": number,
            "standing": standing,
            "set_at": now,
        },
    )
    if not personal:
        mine = session.execute(
            select(PersonalBestRow)
            .where(
                PersonalBestRow.player_id == player_id,
                PersonalBestRow.game == game,
                PersonalBestRow.rules_key == rules_key,
                PersonalBestRow.number == number,
            )
            .with_for_update()
        ).scalar_one()
        personal = better(result.standing, mine.standing)
        if personal:
            mine.standing, mine.set_at = standing, now
    session.flush()
    return RecordChange(first_win, broken, holds, personal)
