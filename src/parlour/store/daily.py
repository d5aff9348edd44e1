"""The daily deals in the database (decision 0050): each day's deal of a game under a rule set, drawn
once and kept, and each player's counted attempt at it, read for the leaderboard.

What a deal is, how a result is compared and said belong to the game (:class:`DailyDeals`); the first
attempt of a player to end is counted by :func:`count_attempt`, inside the transaction that ends it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.fairness import new_salt
from parlour.games.base import DAILY_SECRET, DailyDeals, day_end
from parlour.store.models import DailyDealRow, DailyPlayerRow, DailyResultRow, GameRow, PlayerRow
from parlour.store.records import insert_ignoring_conflict
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_row, utcnow

BOARD_LIMIT: Final = 100
"""The most entries of a leaderboard one call reads."""
NEW_PLAYERS_PER_ADDRESS: Final = 3
"""How many players new on the day one address may rank at a game's daily deal that day by default
(decision 0060): a household or an office, not a script making fresh players to try a line found by
another. The server's rate limit ``daily_new_players`` sets it."""
UNRANKED: Final = "unranked"
"""The key of a daily attempt's record ``secret`` saying why it is played but not ranked (``address``:
the address had ranked its new players of the day already)."""


class NoDailyDeals(InvalidInput):
    """A game that has no daily deals, or rules it has none under."""

    code = "no_daily_deals"


@dataclass(frozen=True)
class DailyDeal:
    """The deal of ``day`` of ``game`` under ``rules_key``: its code, salt and commitment. The code and
    the salt are for the server until the day is over (:attr:`revealed`)."""

    game: str
    rules_key: str
    day: date
    code: str
    salt: str
    commitment: str

    def revealed(self, now: datetime) -> bool:
        """Return whether the day is over at ``now`` (UTC): its code and salt may be published."""
        return now >= day_end(self.day)


@dataclass(frozen=True)
class DailyEntry:
    """A counted attempt: its ``place`` on the day's leaderboard (1 the best; tied standings share a
    place), the player, the game's record, its standing and its replayed result."""

    place: int
    player_id: int
    name: str | None
    game_id: str
    standing: tuple[int, ...]
    result: dict[str, Any]
    made_at: datetime
    new: bool = False
    """The player's first game was on that day: an anonymous newcomer the board cannot vouch for (one
    person may make many players) (decision 0060)."""


class DailyBoard(NamedTuple):
    """A day's leaderboard: its first ``entries``, best first, the ``total`` of counted attempts, and
    the asking player's own entry (``mine``, None without one)."""

    entries: list[DailyEntry]
    total: int
    mine: DailyEntry | None


def today(now: datetime | None = None) -> date:
    """Return the day (UTC) of ``now`` (default: now)."""
    return (now or utcnow()).astimezone(UTC).date()


CALENDAR_WEEKS: Final = 4
"""How many weeks (Monday first) a streak's calendar shows, this one included."""


@dataclass(frozen=True)
class DailyStreaks:
    """A player's runs of days (UTC) at a game's daily deals: ``played`` (days in a row with a counted
    attempt under any rule set) and ``won`` (days in a row with a counted win), each ``current`` (up to
    today, or to yesterday while today is still to play) and ``best``; and ``calendar``, the last
    :data:`CALENDAR_WEEKS` weeks, Monday first, each day ``won``, ``played``, ``none`` or ``later``
    (a day to come)."""

    current_played: int
    best_played: int
    current_won: int
    best_won: int
    calendar: tuple[tuple[tuple[date, str], ...], ...]


def streaks(days: dict[date, bool], now: date) -> DailyStreaks:
    """Return the streaks of a player whose counted days are ``days`` (each: whether one was won), on
    day ``now``."""

    def runs(wanted: set[date]) -> tuple[int, int]:
        best = run = 0
        previous: date | None = None
        for day in sorted(wanted):
            run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
            best, previous = max(best, run), day
        # The current run ends today, or yesterday while today has not been played yet.
        end = now if now in wanted else now - timedelta(days=1)
        current = 0
        while end - timedelta(days=current) in wanted:
            current += 1
        return current, best

    played = set(days)
    won = {day for day, was_won in days.items() if was_won}
    current_played, best_played = runs(played)
    current_won, best_won = runs(won)
    start = now - timedelta(days=now.weekday() + 7 * (CALENDAR_WEEKS - 1))
    weeks = []
    for week in range(CALENDAR_WEEKS):
        row = []
        for weekday in range(7):
            day = start + timedelta(days=7 * week + weekday)
            state = "later" if day > now else "won" if day in won else "played" if day in played else "none"
            row.append((day, state))
        weeks.append(tuple(row))
    return DailyStreaks(current_played, best_played, current_won, best_won, tuple(weeks))


class DailyStore(Repository):
    """The daily-deal methods of :class:`~parlour.store.Store`."""

    def daily_deals(self, game: str) -> DailyDeals:
        """Return the daily deals of ``game``.

        Raises:
            NoDailyDeals: no registered game of that name has them.
        """
        definition = self.games.find(game) if isinstance(game, str) else None
        if definition is None or definition.daily is None:
            raise NoDailyDeals(f"{game!r} has no daily deal")
        return definition.daily

    def daily_deal(self, game: str, rules_key: str, day: date) -> DailyDeal:
        """Return the deal of ``day`` of ``game`` under ``rules_key``, drawing it now if nobody has
        (every process and the command line then read the same row).

        Raises:
            NoDailyDeals: no such game or rule set with daily deals.
        """
        daily = self.daily_deals(game)
        if rules_key not in daily.rules:
            raise NoDailyDeals(f"{game} has daily deals under {', '.join(daily.rules)}, not {rules_key!r}")
        with self._read() as session:
            row = session.get(DailyDealRow, (game, rules_key, day))
        if row is None:
            code, salt = daily.draw(rules_key), new_salt()
            with self._write() as session:
                values = {
                    "game": game,
                    "rules_key": rules_key,
                    "day": day,
                    "code": code,
                    "salt": salt,
                    "commitment": daily.commitment(code, salt),
                    "created_at": utcnow(),
                }
                # Two processes may draw at once: the first insert wins, and both read it.
                insert_ignoring_conflict(session, DailyDealRow.__table__, values)
                row = session.get(DailyDealRow, (game, rules_key, day))
                assert row is not None
        return DailyDeal(row.game, row.rules_key, row.day, row.code, row.salt, row.commitment)

    def daily_board(
        self, game: str, rules_key: str, day: date, limit: int = BOARD_LIMIT, player_id: int | None = None
    ) -> DailyBoard:
        """Return the first ``limit`` entries of a day's leaderboard, best first, how many counted
        attempts it has in all, and the player's own entry (None without one), from one read."""
        entries = self._board(game, rules_key, day)
        mine = next((e for e in entries if e.player_id == player_id), None) if player_id is not None else None
        return DailyBoard(entries[: max(0, min(limit, BOARD_LIMIT))], len(entries), mine)

    def daily_entry(self, game: str, rules_key: str, day: date, player_id: int | None) -> DailyEntry | None:
        """Return the player's counted attempt at a day's deal with its place, None without one."""
        return self.daily_board(game, rules_key, day, player_id=player_id).mine

    def daily_streaks(self, game: str, player_id: int | None, now: date | None = None) -> DailyStreaks:
        """Return the player's streaks at ``game``'s daily deals on day ``now`` (default: today); a
        day counts when the player has a counted attempt under any of its rule sets.

        Raises:
            NoDailyDeals: no such game with daily deals.
        """
        daily = self.daily_deals(game)
        days: dict[date, bool] = {}
        if player_id is not None:
            with self._read() as session:
                rows = session.execute(
                    select(DailyResultRow.day, DailyResultRow.result).where(
                        DailyResultRow.game == game, DailyResultRow.player_id == player_id
                    )
                ).all()
            for day, result in rows:
                days[day] = days.get(day, False) or daily.won(dict(result))
        return streaks(days, now or today())

    def admit_daily_player(
        self, game: str, day: date, address: str, player_id: int, cap: int = NEW_PLAYERS_PER_ADDRESS
    ) -> bool:
        """Return whether a ranked attempt of the player at ``game``'s deal of ``day`` may count, as far
        as its address goes: a player made before that day always may; a player new on the day may when
        the address (as :func:`address_key` spells it) has ranked fewer than ``cap`` new players at
        that deal, or this one already. An admitted new player is remembered.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._write() as session:
            player = player_row(session, player_id)
            if as_utc(player.created_at).date() < day:
                return True
            key = (game, day, address, player_id)
            if session.get(DailyPlayerRow, key) is not None:
                return True
            if _new_players_ranked(session, game, day, address) >= cap:
                return False
            values = {
                "game": game,
                "day": day,
                "address": address,
                "player_id": player_id,
                "made_at": utcnow(),
            }
            insert_ignoring_conflict(session, DailyPlayerRow.__table__, values)
            return True

    def address_full(self, game: str, day: date, address: str, cap: int = NEW_PLAYERS_PER_ADDRESS) -> bool:
        """Return whether the address has ranked its ``cap`` new players at ``game``'s deal of ``day``
        already (a new player's attempt from it is then not ranked)."""
        with self._read() as session:
            return _new_players_ranked(session, game, day, address) >= cap

    def _board(self, game: str, rules_key: str, day: date) -> list[DailyEntry]:
        with self._read() as session:
            rows = session.execute(
                select(DailyResultRow, PlayerRow.name, PlayerRow.created_at)
                .join(PlayerRow, PlayerRow.id == DailyResultRow.player_id)
                .where(
                    DailyResultRow.game == game,
                    DailyResultRow.rules_key == rules_key,
                    DailyResultRow.day == day,
                )
            ).all()
        ordered = sorted(
            rows, key=lambda found: (tuple(found[0].standing), found[0].made_at, found[0].player_id)
        )
        entries: list[DailyEntry] = []
        for index, (row, name, created_at) in enumerate(ordered):
            standing = tuple(int(value) for value in row.standing)
            tied = entries and entries[-1].standing == standing
            place = entries[-1].place if tied else index + 1
            made_at, new = as_utc(row.made_at), as_utc(created_at).date() >= day
            entries.append(
                DailyEntry(place, row.player_id, name, row.game_id, standing, dict(row.result), made_at, new)
            )
        return entries


def _new_players_ranked(session: Session, game: str, day: date, address: str) -> int:
    """Return how many players new on ``day`` the address has ranked at ``game``'s deal of that day."""
    where = (DailyPlayerRow.game == game, DailyPlayerRow.day == day, DailyPlayerRow.address == address)
    return session.scalar(select(func.count()).select_from(DailyPlayerRow).where(*where)) or 0


def count_attempt(
    session: Session, daily: DailyDeals, row: GameRow, data: dict[str, Any], now: datetime
) -> bool:
    """Count an attempt at a daily deal whose record ends now, inside the transaction that ends it:
    the player's first attempt of that day to end, if it ended within its day. Return whether it was
    counted. ``data`` is the result replayed from the stored moves."""
    day_text = (row.secret or {}).get(DAILY_SECRET)
    try:
        day = date.fromisoformat(day_text) if isinstance(day_text, str) else None
    except ValueError:
        day = None
    if day is None or now >= day_end(day):
        return False  # after the day is over its deal is public: nothing counts any more
    if (row.secret or {}).get(UNRANKED):
        return False  # played, not ranked: its address had ranked its new players of the day
    seconds = max(0, round((now - as_utc(row.created_at)).total_seconds()))
    result = {**data, "seconds": seconds}
    standing = daily.standing_of(result)
    if standing is None:
        return False
    values = {
        "game": row.game,
        "rules_key": row.rules_key,
        "day": day,
        "player_id": row.player_id,
        "game_id": row.id,
        "standing": list(standing),
        "result": result,
        "made_at": now,
    }
    return insert_ignoring_conflict(session, DailyResultRow.__table__, values)


def address_key(day: date, address: str) -> str:
    """Return how an address is kept for the cap on new players (:class:`DailyPlayerRow`): a SHA-256
    of the day and the address, so that the table holds no address and no key joins two days."""
    return hashlib.sha256(f"{day.isoformat()}|{address}".encode()).hexdigest()
