"""Numbered TriPeaks games: which results are better, and the locked update of a game's record.

A result is (peak cards left, moves); fewer cards left is better, then fewer moves. The record row of a
game is created with an insert that ignores conflicts and then read with a row lock (``FOR UPDATE`` on
PostgreSQL; on SQLite the write transaction already holds the database's write lock), so two players
finishing the same game at the same moment are applied one after the other: no update is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from parlour.store.models import NumberedRecordRow, PersonalBestRow


def better(left: int, moves: int, than_left: int, than_moves: int) -> bool:
    """Return whether the result (left, moves) is strictly better than (than_left, than_moves)."""
    return (left, moves) < (than_left, than_moves)


@dataclass(frozen=True)
class RecordChange:
    """What one result did to a numbered game's record and to the player's own best."""

    first_win: bool
    record_broken: bool
    holds_record: bool
    personal_best: bool


def _insert_ignoring_conflict(session: Session, table: object, values: dict[str, object]) -> bool:
    """Insert a row unless its primary key exists; return whether it was inserted."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    # RETURNING, not rowcount: drivers disagree on rowcount after ON CONFLICT DO NOTHING.
    columns = list(table.primary_key.columns)  # type: ignore[attr-defined]
    statement = insert(table).values(**values).on_conflict_do_nothing().returning(*columns)  # type: ignore[arg-type]
    return session.execute(statement).first() is not None


def apply_result(
    session: Session, rules_key: str, number: int, player_id: int, left: int, moves: int, now: datetime
) -> RecordChange:
    """Apply one replayed result to the game's record and the player's best, inside ``session``."""
    won = left == 0
    created = _insert_ignoring_conflict(
        session,
        NumberedRecordRow.__table__,
        {
            "rules_key": rules_key,
            "number": number,
            "best_left": left,
            "best_moves": moves,
            "holder_id": player_id,
            "set_at": now,
            "first_winner_id": player_id if won else None,
            "first_won_at": now if won else None,
            "plays": 1,
        },
    )
    record = session.execute(
        select(NumberedRecordRow)
        .where(NumberedRecordRow.rules_key == rules_key, NumberedRecordRow.number == number)
        .with_for_update()
    ).scalar_one()
    if created:
        first_win, broken = won, False
    else:
        record.plays += 1
        broken = better(left, moves, record.best_left, record.best_moves)
        if broken:
            record.best_left, record.best_moves = left, moves
            record.holder_id, record.set_at = player_id, now
        first_win = won and record.first_winner_id is None
        if first_win:
            record.first_winner_id, record.first_won_at = player_id, now
    holds = record.holder_id == player_id

    personal = _insert_ignoring_conflict(
        session,
        PersonalBestRow.__table__,
        {
            "player_id": player_id,
            "rules_key": rules_key,
            "number": number,
            "best_left": left,
            "best_moves": moves,
            "set_at": now,
        },
    )
    if not personal:
        mine = session.execute(
            select(PersonalBestRow)
            .where(
                PersonalBestRow.player_id == player_id,
                PersonalBestRow.rules_key == rules_key,
                PersonalBestRow.number == number,
            )
            .with_for_update()
        ).scalar_one()
        personal = better(left, moves, mine.best_left, mine.best_moves)
        if personal:
            mine.best_left, mine.best_moves, mine.set_at = left, moves, now
    session.flush()
    return RecordChange(first_win, broken, holds, personal)
