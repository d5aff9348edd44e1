"""People's ratings at seated games (decision 0062): each rated round updates them once, in one
transaction with the round's record, and everything needed to recompute them is kept.

Order matters to a rating model: the rows of the people in a round are locked before the round is
numbered, so two rounds sharing a person are numbered in the order their updates were made, and the
export (by round number) replays them in that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import func, select

from parlour.games.ratings import MODEL_SETTINGS, Entrant, Skill, rate_round
from parlour.store.errors import StoreUnavailable, conflict
from parlour.store.models import PlayerRow, RatedRoundRow, RatingChangeRow, RatingRow
from parlour.store.repository import Repository

LEADERBOARD_SIZE: Final = 50
MIN_ROUNDS: Final = 10
"""The fewest rated rounds that put a person on a leaderboard."""


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """One seat of a rated round, in finishing order: a person (``player``) or a computer player
    (``computer``: its strength)."""

    player: int | None = None
    computer: str | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a leaderboard: the person's ``player`` id, ``name`` and rating (``skill``), and the
    rounds counted (all time, or in the week)."""

    player: int
    name: str
    skill: Skill
    rounds: int


class RatingsStore(Repository):
    """The rating methods of :class:`~parlour.store.Store`."""

    def record_round(
        self,
        game: str,
        game_id: str,
        number: int,
        order: Sequence[RoundSeat],
        computers: Mapping[str, Skill],
    ) -> dict[int, Skill]:
        """Rate one round of match ``game_id`` that finished in ``order`` (first out first) and keep it;
        return each person's rating after it. A round already kept is not counted twice (its ratings
        after are returned as they were).

        Raises:
            ValueError: a computer player without a fixed rating, or fewer than two seats.
        """
        for seat in order:
            if seat.computer is not None and seat.computer not in computers:
                raise ValueError(f"no fixed rating for the computer player {seat.computer!r}")
        people = sorted({seat.player for seat in order if seat.player is not None})
        now = datetime.now(UTC)
        try:
            with self._write() as session:
                known = {row.player_id: row for row in session.scalars(
                    select(RatingRow)
                    .where(RatingRow.game == game, RatingRow.player_id.in_(people))
                    .order_by(RatingRow.player_id)
                    .with_for_update()
                )}  # fmt: skip
                for player in people:
                    if player not in known and session.get(PlayerRow, player) is not None:
                        row = RatingRow(player_id=player, game=game, mu=Skill().mu, sigma=Skill().sigma,
                                        rounds=0, updated_at=now)  # fmt: skip
                        session.add(row)
                        known[player] = row
                session.flush()
                entrants = []
                for seat in order:  # a player deleted meanwhile is left out
                    if seat.computer is not None:
                        entrants.append(Entrant(computers[seat.computer], computer=seat.computer))
                    elif seat.player is not None and seat.player in known:
                        entrants.append(Entrant(_skill(known[seat.player]), player=seat.player))
                if len(entrants) < 2:
                    return {}
                after = rate_round(entrants)
                saved = RatedRoundRow(
                    game=game, game_id=game_id, round=number, played_at=now,
                    order=[_entry(entrant) for entrant in entrants],
                )  # fmt: skip
                session.add(saved)
                session.flush()
                result: dict[int, Skill] = {}
                for place, (entrant, skill) in enumerate(zip(entrants, after, strict=True), start=1):
                    if entrant.player is None:
                        continue
                    row = known[entrant.player]
                    row.mu, row.sigma, row.rounds, row.updated_at = skill.mu, skill.sigma, skill.rounds, now
                    session.add(
                        RatingChangeRow(
                            round_id=saved.id, player_id=entrant.player, game=game, place=place,
                            mu=skill.mu, sigma=skill.sigma, played_at=now,
                        )
                    )  # fmt: skip
                    result[entrant.player] = skill
                return result
        except StoreUnavailable as error:  # the round was kept meanwhile (an owner's retry)
            if not conflict(error):
                raise
            return self.ratings_after(game_id, number)

    def ratings_after(self, game_id: str, number: int) -> dict[int, Skill]:
        """Return the ratings the people of a kept round had after it (empty when it was not kept)."""
        with self._read() as session:
            saved = session.execute(
                select(RatedRoundRow).where(RatedRoundRow.game_id == game_id, RatedRoundRow.round == number)
            ).scalar_one_or_none()
            if saved is None:
                return {}
            rows = session.scalars(select(RatingChangeRow).where(RatingChangeRow.round_id == saved.id))
            return {row.player_id: Skill(row.mu, row.sigma) for row in rows}

    def rating(self, game: str, player_id: int) -> Skill | None:
        """Return a person's rating at ``game`` (None before their first rated round)."""
        with self._read() as session:
            row = session.get(RatingRow, (player_id, game))
            return None if row is None else _skill(row)

    def rating_history(self, game: str, player_id: int, limit: int = 500) -> list[tuple[datetime, Skill]]:
        """Return a person's rating after each of their last ``limit`` rated rounds, oldest first."""
        with self._read() as session:
            rows = list(session.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.player_id == player_id, RatingChangeRow.game == game)
                .order_by(RatingChangeRow.round_id.desc())
                .limit(limit)
            ))  # fmt: skip
        total = len(rows)
        return [
            (_aware(row.played_at), Skill(row.mu, row.sigma, total - index))
            for index, row in reversed(list(enumerate(rows)))
        ]

    def leaderboard(
        self, game: str, *, week: bool = False, limit: int = LEADERBOARD_SIZE, min_rounds: int = MIN_ROUNDS
    ) -> list[Standing]:
        """Return the people with at least ``min_rounds`` rated rounds (all time, or in the last seven
        days when ``week``), by their rating's lower bound (μ − 2σ: a rating backed by few rounds does
        not top the board by luck), then by μ."""
        with self._read() as session:
            if week:
                since = datetime.now(UTC) - timedelta(days=7)
                counted = dict(session.execute(
                    select(RatingChangeRow.player_id, func.count())
                    .where(RatingChangeRow.game == game, RatingChangeRow.played_at >= since)
                    .group_by(RatingChangeRow.player_id)
                    .having(func.count() >= min_rounds)
                ).all())  # fmt: skip
                query = select(RatingRow, PlayerRow.name).join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                query = query.where(RatingRow.game == game, RatingRow.player_id.in_(list(counted)))
            else:
                query = select(RatingRow, PlayerRow.name).join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                query = query.where(RatingRow.game == game, RatingRow.rounds >= min_rounds)
                counted = {}
            lower_bound = RatingRow.mu - 2 * RatingRow.sigma
            rows = session.execute(query.order_by(lower_bound.desc(), RatingRow.mu.desc()).limit(limit)).all()
            return [
                Standing(row.player_id, name or "", _skill(row), counted.get(row.player_id, row.rounds))
                for row, name in rows
            ]

    def rated_rounds(self, game: str | None = None) -> list[dict[str, Any]]:
        """Return every rated round (of ``game``, or of every game) in the order the ratings were
        updated, each with its finishing order (the ratings the seats played at) and the people's
        ratings after it: what ``parlour ratings export --json`` prints."""
        with self._read() as session:
            query = select(RatedRoundRow).order_by(RatedRoundRow.id)
            if game is not None:
                query = query.where(RatedRoundRow.game == game)
            rounds = list(session.scalars(query))
            changes: dict[int, list[RatingChangeRow]] = {}
            ids = [saved.id for saved in rounds]
            for start in range(0, len(ids), 500):
                for row in session.scalars(
                    select(RatingChangeRow).where(RatingChangeRow.round_id.in_(ids[start : start + 500]))
                ):
                    changes.setdefault(row.round_id, []).append(row)
        return [
            {
                "round": saved.id,
                "game": saved.game,
                "match": saved.game_id,
                "match_round": saved.round,
                "played_at": _aware(saved.played_at).isoformat(),
                "order": saved.order,
                "after": {
                    str(row.player_id): {"mu": row.mu, "sigma": row.sigma}
                    for row in sorted(changes.get(saved.id, []), key=lambda row: row.place)
                },
            }
            for saved in rounds
        ]


def export_settings() -> dict[str, Any]:
    """Return the rating model's settings as the export prints them."""
    return dict(MODEL_SETTINGS)


def _skill(row: RatingRow) -> Skill:
    return Skill(row.mu, row.sigma, row.rounds)


def _entry(entrant: Entrant) -> dict[str, Any]:
    """Return a seat of a kept round: who, and the rating they played at."""
    who: dict[str, Any] = (
        {"computer": entrant.computer} if entrant.computer is not None else {"player": entrant.player}
    )
    return {**who, "mu": entrant.skill.mu, "sigma": entrant.skill.sigma}


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
