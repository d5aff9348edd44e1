"""What every repository of the store reads rows with: times in UTC and players from their rows."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from parlour.games.base import now_utc
from parlour.games.registry import Registry
from parlour.store import preferences as prefs
from parlour.store.errors import UnknownPlayer
from parlour.store.models import PlayerRow
from parlour.store.types import Player

utcnow = now_utc
"""Return the current time in UTC (timezone-aware): the games' own clock, which ranked deals are read
against (``parlour.games.base.now_utc``)."""


def as_utc(moment: datetime) -> datetime:
    """Return ``moment`` as an aware UTC time (SQLite hands back naive times that were stored in UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def player_of(row: PlayerRow, games: Registry | None = None) -> Player:
    """Return a player; with ``games``, their preferences too (only for the player themself)."""
    preferences = prefs.with_defaults(row.preferences, games) if games is not None else {}
    return Player(row.id, row.name, as_utc(row.created_at), preferences)


def player_row(session: Session, player_id: int) -> PlayerRow:
    """Return the row of player ``player_id``.

    Raises:
        UnknownPlayer: no such player.
    """
    row = session.get(PlayerRow, player_id)
    if row is None:
        raise UnknownPlayer(f"no player has the id {player_id!r}")
    return row
