"""The numbered games' records in the database: every game's numbered deals, each with its record (the
best result and the first to win) and each player's own best, read for the numbered games' pages.

Results are written by :func:`parlour.store.records.apply_result` when a game ends; what a result is
and which is better is the game's own (:class:`~parlour.games.base.NumberedGames`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.games.base import NumberedGames
from parlour.store.models import NumberedRecordRow, PersonalBestRow, PlayerRow
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_of, player_row
from parlour.store.types import NumberedEntry, NumberedRecord, PersonalBest

PAGE_LIMIT = 500
"""The most numbered games one call reads."""


class NoNumberedGames(InvalidInput):
    """A game that has no numbered deals (or no game of that name)."""

    code = "no_numbered_games"


@dataclass(frozen=True)
class Leader:
    """One line of a numbered games' leaderboard: a player, how many deals they count for (first wins,
    or records held), and the latest of those deals (its number, for a link)."""

    player_id: int
    name: str | None
    count: int
    latest: int


class NumberedStore(Repository):
    """The numbered-records methods of :class:`~parlour.store.Store`."""

    def numbered_games(self, game: str) -> NumberedGames:
        """Return the numbered deals of ``game``.

        Raises:
            NoNumberedGames: no registered game of that name has numbered deals.
        """
        definition = self.games.find(game) if isinstance(game, str) else None
        if definition is None or definition.numbered is None:
            having = ", ".join(found.name for found in self.games.numbered()) or "none"
            raise NoNumberedGames(f"{game!r} has no numbered games (the games that have: {having})")
        return definition.numbered

    def numbered_rules_key(self, game: str, rules: str) -> str:
        """Return the rules key of ``game``'s numbered deals named ``rules`` (any case).

        Raises:
            NoNumberedGames: no such game with numbered deals.
            InvalidInput: rules under which it has no numbered deals.
        """
        keys = self.numbered_games(game).rules_keys
        if isinstance(rules, str) and rules.lower() in keys:
            return rules.lower()
        raise InvalidInput(f"numbered games are played under {' or '.join(keys)} rules, not {rules!r}")

    def check_number(self, game: str, number: Any) -> int:
        """Return ``number`` if ``game`` has a numbered deal of that number.

        Raises:
            NoNumberedGames, InvalidInput: no such game, or a number outside its range.
        """
        count = self.numbered_games(game).count
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
            raise InvalidInput(f"numbered games run from 1 to {count:,}, not {number!r}")
        return number

    def numbered_record(self, game: str, rules: str, number: int) -> NumberedRecord | None:
        """Return the record of ``game``'s numbered deal ``number`` under ``rules``, None if unplayed.

        Raises:
            NoNumberedGames, InvalidInput: no such game, rules without numbered deals, or a number
            outside their range.
        """
        key = self.numbered_rules_key(game, rules)
        self.check_number(game, number)
        numbered = self.numbered_games(game)
        with self._read() as session:
            row = session.get(NumberedRecordRow, (game, key, number))
            return _record(session, row, numbered) if row else None

    def numbered_leaders(
        self, game: str, rules: str, *, since: datetime | None = None, limit: int = 20
    ) -> dict[str, list[Leader]]:
        """Return ``game``'s numbered leaderboards under ``rules``: ``first_wins`` (the players who
        first won the most deals) and ``records`` (who hold the best result of the most deals), each
        the ``limit`` best, most first (ties: the earlier to get there first); ``since`` counts only
        the first wins, and the records, set from that moment on.

        Raises:
            NoNumberedGames, InvalidInput: no such game, or rules without numbered deals.
        """
        key = self.numbered_rules_key(game, rules)
        limit = max(1, min(limit, 100))
        boards: dict[str, list[Leader]] = {}
        with self._read() as session:
            for board, who, when in (
                ("first_wins", NumberedRecordRow.first_winner_id, NumberedRecordRow.first_won_at),
                ("records", NumberedRecordRow.holder_id, NumberedRecordRow.set_at),
            ):
                conditions = [
                    NumberedRecordRow.game == game,
                    NumberedRecordRow.rules_key == key,
                    who.is_not(None),
                ]
                if since is not None:
                    conditions.append(when >= since)
                counted = (
                    select(
                        who.label("player"),
                        func.count().label("deals"),
                        func.max(when).label("last_at"),
                    )
                    .where(*conditions)
                    .group_by(who)
                    .order_by(func.count().desc(), func.max(when).asc())
                    .limit(limit)
                    .subquery()
                )
                rows = session.execute(
                    select(counted.c.player, counted.c.deals, counted.c.last_at, PlayerRow.name)
                    .join(PlayerRow, PlayerRow.id == counted.c.player)
                    .order_by(counted.c.deals.desc(), counted.c.last_at.asc())
                ).all()
                leaders = []
                for player, deals, last_at, name in rows:
                    latest = session.scalar(
                        select(NumberedRecordRow.number)
                        .where(*conditions, who == player, when == last_at)
                        .order_by(NumberedRecordRow.number)
                        .limit(1)
                    )
                    leaders.append(Leader(int(player), name, int(deals), int(latest or 0)))
                boards[board] = leaders
        return boards

    def numbered_page(
        self, game: str, rules: str, player_id: int | None, offset: int, limit: int
    ) -> list[NumberedEntry]:
        """Return the picker's lines for ``game``'s numbered deals ``offset + 1`` … ``offset + limit``
        (within the range).

        Each line holds the deal's record, the player's own best (none without a player) and the
        game's solver's verdict.

        Raises:
            NoNumberedGames, InvalidInput: no such game, rules without numbered deals, a negative
            offset or a limit outside 1–500.
        """
        key = self.numbered_rules_key(game, rules)
        numbered = self.numbered_games(game)
        if offset < 0 or not 1 <= limit <= PAGE_LIMIT:
            raise InvalidInput(
                f"a page starts at an offset of 0 or more and holds 1–{PAGE_LIMIT} games, "
                f"not {offset}+{limit}"
            )
        first, last = offset + 1, min(offset + limit, numbered.count)
        if first > last:
            return []
        with self._read() as session:
            records = {
                row.number: _record(session, row, numbered)
                for row in session.scalars(
                    select(NumberedRecordRow).where(
                        NumberedRecordRow.game == game,
                        NumberedRecordRow.rules_key == key,
                        NumberedRecordRow.number.between(first, last),
                    )
                )
            }
            mine: dict[int, PersonalBest] = {}
            if player_id is not None:
                for best in session.scalars(
                    select(PersonalBestRow).where(
                        PersonalBestRow.player_id == player_id,
                        PersonalBestRow.game == game,
                        PersonalBestRow.rules_key == key,
                        PersonalBestRow.number.between(first, last),
                    )
                ):
                    standing = tuple(best.standing)
                    mine[best.number] = PersonalBest(
                        standing, numbered.best_json(standing), numbered.wins(standing), as_utc(best.set_at)
                    )
        return [
            NumberedEntry(
                game, key, number, records.get(number), mine.get(number), numbered.verdict(key, number)
            )
            for number in range(first, last + 1)
        ]


def _record(session: Session, row: NumberedRecordRow, numbered: NumberedGames) -> NumberedRecord:
    holder = player_of(player_row(session, row.holder_id))
    first = player_of(player_row(session, row.first_winner_id)) if row.first_winner_id is not None else None
    standing = tuple(row.standing)
    return NumberedRecord(
        game=row.game,
        rules_key=row.rules_key,
        number=row.number,
        standing=standing,
        best=numbered.best_json(standing),
        won=numbered.wins(standing),
        holder=holder,
        set_at=as_utc(row.set_at),
        first_winner=first,
        first_won_at=as_utc(row.first_won_at) if row.first_won_at else None,
        plays=row.plays,
    )
