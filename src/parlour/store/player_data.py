"""A player's data as a whole (decision 0064): everything stored about them, to download; erasing them
while the boards and other people's records keep their results; and merging two players one person
holds into one.

Which table does what with a player's rows is written down once, in :data:`ERASED_WITH_PLAYER` and
:data:`KEPT_AS_RESULTS`; a test checks that every column naming a player is in one of them, so a new
table cannot be forgotten.
"""

from __future__ import annotations

import base64
import secrets as random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from sqlalchemy import Column, FromClause, Table, delete, or_, select, update
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.games.ratings import Entrant, Skill, rate_round
from parlour.games.tables import OVER
from parlour.store import secrets
from parlour.store.errors import UnknownPlayer
from parlour.store.models import (
    Base,
    ChallengeAttemptRow,
    ChallengeRow,
    DailyPlayerRow,
    DailyResultRow,
    GamePlayerRow,
    GameReviewRow,
    GameRow,
    MoveRow,
    NameReportRow,
    PersonalBestRow,
    PlayerRow,
    PuzzleRatingRow,
    RatedRoundRow,
    RatingChangeRow,
    RatingRow,
    SeatClaimRow,
    TableRow,
)
from parlour.store.repository import Repository
from parlour.store.rows import player_row, utcnow

FORMAT: Final = "parlour-player-data/1"
ERASED_WITH_PLAYER: Final = frozenset(
    {
        ("player_tokens", "player_id"),
        ("passkeys", "player_id"),
        ("auth_challenges", "player_id"),
        ("link_codes", "player_id"),
        ("name_reports", "reporter_id"),
        ("name_reports", "reported_id"),
        ("daily_players", "player_id"),
        ("seat_claims", "player_id"),
    }
)
"""Columns whose rows are the person's own and go when they delete themselves: browsers, passkeys,
codes, the names they reported or were reported by, the addresses the daily deal counted, seats
claimed."""
KEPT_AS_RESULTS: Final = frozenset(
    {
        ("games", "player_id"),
        ("game_players", "player_id"),
        ("numbered_records", "holder_id"),
        ("numbered_records", "first_winner_id"),
        ("personal_bests", "player_id"),
        ("tables", "host_id"),
        ("daily_results", "player_id"),
        ("challenges", "challenger_id"),
        ("challenge_attempts", "player_id"),
        ("rating_changes", "player_id"),
        ("ratings", "player_id"),
        ("puzzle_attempts", "player_id"),
        ("puzzle_ratings", "player_id"),
    }
)
"""Columns whose rows are results the boards and other people's records are made of: when the player
deletes themselves they move to a nameless erased row (their own games nobody else's record uses are
deleted first)."""


TABLE_LIVE: Final = timedelta(minutes=30)
"""A table saved this recently, and not over, may be in a process's memory with its seats: a player
sitting at one is neither erased nor merged away until they leave it (its owner would write their id)."""


class PlayerSeated(InvalidInput):
    """The player sits at a table in play (or hosts one): they leave it first."""

    code = "player_seated"


@dataclass(frozen=True)
class MergeSummary:
    """What a merge moved: the kept player, the games brought in, and the counted attempts at daily
    deals and challenges that lost to an earlier one."""

    player_id: int
    games: int
    dropped_attempts: int


def player_columns() -> Iterator[tuple[Table, Column[Any]]]:
    """Yield every column of the database that names a player (a foreign key to ``players.id``)."""
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            if any(key.column.table.name == "players" for key in column.foreign_keys):
                yield table, column


def _plain(value: Any) -> Any:
    """Return a stored value as JSON can hold it (times in ISO 8601, bytes in base64url)."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return base64.urlsafe_b64encode(bytes(value)).rstrip(b"=").decode()
    return value


def _rows(session: Session, table: FromClause, *conditions: Any) -> list[dict[str, Any]]:
    found = session.execute(select(table).where(or_(*conditions))).mappings()
    return [{str(key): _plain(value) for key, value in row.items()} for row in found]


def _names(seats: Any, player_id: int) -> bool:
    """Return whether a record's seats (a JSON list) hold ``player_id``."""
    return isinstance(seats, list) and any(
        isinstance(seat, dict) and seat.get("player") == player_id for seat in seats
    )


def _renamed(seats: Any, old: int, new: int, *, forget: bool = False) -> Any:
    """Return seats with ``old`` replaced by ``new`` (and, when ``forget``, their name and seat token
    gone)."""
    if not isinstance(seats, list):
        return seats
    changed = []
    for seat in seats:
        if isinstance(seat, dict) and seat.get("player") == old:
            seat = {**seat, "player": new}
            if forget and "name" in seat:
                seat["name"] = ""
            if forget and "token_hash" in seat:
                seat["token_hash"] = None
        changed.append(seat)
    return changed


class PlayerDataStore(Repository):
    """The whole-player methods of :class:`~parlour.store.Store`: export, erase, merge."""

    def player_data(self, player_id: int) -> dict[str, Any]:
        """Return everything stored about the player: every row that names them, by table (the
        tables and games they sat at, the rated rounds they played, and the moves and reviews of their
        games included), as stored: secrets are stored only as hashes.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._read() as session:
            player_row(session, player_id)
            tables: dict[str, list[dict[str, Any]]] = {
                "players": _rows(session, PlayerRow.__table__, PlayerRow.id == player_id)
            }
            naming: dict[str, list[Any]] = {}
            for table, column in player_columns():  # one query a table, whichever column names them
                naming.setdefault(str(table.name), [table]).append(column == player_id)
            for name, (table, *conditions) in naming.items():
                tables[name] = _rows(session, table, *conditions)
            game_ids = {row["id"] for row in tables.get("games", [])}
            game_ids |= {row["game_id"] for row in tables.get("game_players", [])}
            tables["games"] = _rows(session, GameRow.__table__, GameRow.id.in_(sorted(game_ids)))
            tables["game_moves"] = _rows(session, MoveRow.__table__, MoveRow.game_id.in_(sorted(game_ids)))
            tables["game_reviews"] = _rows(
                session, GameReviewRow.__table__, GameReviewRow.game_id.in_(sorted(game_ids))
            )
            table_ids = {row["table_id"] for row in tables["games"] if row["table_id"]}
            table_ids |= {row["id"] for row in tables.get("tables", [])}
            table_ids |= {row["table_id"] for row in tables.get("seat_claims", [])}
            tables["tables"] = _rows(session, TableRow.__table__, TableRow.id.in_(sorted(table_ids)))
            round_ids = sorted({row["round_id"] for row in tables.get("rating_changes", [])})
            tables["rated_rounds"] = _rows(session, RatedRoundRow.__table__, RatedRoundRow.id.in_(round_ids))
        for name in tables:
            tables[name].sort(key=lambda row: repr(sorted(row.items())))
        return {"format": FORMAT, "exported_at": utcnow().isoformat(), "player_id": player_id, "rows": tables}

    def erase_player(self, player_id: int) -> int:
        """Delete the player and their personal data; return the id of the nameless erased row that
        keeps their results where the boards and other people's records need them.

        Deleted: the player's row (name, preferences, recovery code), their browsers, passkeys and
        codes, the reports they made or that name them, the addresses the daily deal counted, seats
        they claimed, and their games that no board or other person's record uses. Kept under the
        erased row: daily results, numbered records and bests, ratings and rated rounds, matches at
        tables, challenges others answered and their answers to others' challenges.

        Raises:
            UnknownPlayer: no such player.
        """
        now = utcnow()
        with self._write() as session:
            row = player_row(session, player_id)
            if row.erased_at is not None:
                raise UnknownPlayer(f"no player has the id {player_id!r}")
            _refuse_seated(session, player_id)
            erased = PlayerRow(
                name=None,
                name_key=None,
                recovery_hash=secrets.digest(random.token_urlsafe(32)),  # nobody can hold this code
                preferences={},
                created_at=now,
                erased_at=now,
            )
            session.add(erased)
            session.flush()
            _delete_private_games(session, player_id)
            for table, column in player_columns():
                if (table.name, column.name) in KEPT_AS_RESULTS:
                    session.execute(update(table).where(column == player_id).values({column.name: erased.id}))
            _rewrite_seats(session, player_id, erased.id, forget=True)
            session.delete(row)  # the rest (browsers, passkeys, reports …) goes with it
            return erased.id

    def merge_players(self, source_id: int, target_id: int) -> MergeSummary:
        """Bring everything of player ``source_id`` into ``target_id`` and delete ``source_id``.

        Where both have a row of one key, the earlier counts (a daily deal's counted attempt, an
        answer to a challenge, a seat at a match) or the better stays (a personal best); the target's
        ratings are played again through every rated round of either, in order. Browsers and passkeys
        of the source become the target's; the target keeps its name (taking the source's when it has
        none) and preferences.

        Raises:
            UnknownPlayer: either player does not exist (or is the same one).
        """
        if source_id == target_id:
            raise UnknownPlayer("a player cannot be merged into themselves")
        with self._write() as session:
            source, target = player_row(session, source_id), player_row(session, target_id)
            if source.erased_at is not None or target.erased_at is not None:
                raise UnknownPlayer("an erased player cannot be merged")
            _refuse_seated(session, source_id)
            games = len(list(session.scalars(select(GameRow.id).where(GameRow.player_id == source_id))))
            dropped = _merge_keyed(session, source_id, target_id)
            games_rated = _rated_games(session, (source_id, target_id))
            session.execute(delete(RatingRow).where(RatingRow.player_id == source_id))
            for table, column in player_columns():
                if (table.name, column.name) in {
                    ("auth_challenges", "player_id"),
                    ("link_codes", "player_id"),
                }:
                    session.execute(delete(table).where(column == source_id))
                elif (table.name, column.name) != ("ratings", "player_id"):
                    session.execute(update(table).where(column == source_id).values({column.name: target_id}))
            _rewrite_seats(session, source_id, target_id)
            session.flush()
            for game in games_rated:
                _replay_ratings(session, game, target_id)
            name, key = source.name, source.name_key
            session.delete(source)
            session.flush()
            if target.name is None and name is not None:
                target.name, target.name_key = name, key
            return MergeSummary(target_id, games, dropped)


def _refuse_seated(session: Session, player_id: int) -> None:
    """Refuse to take a player away while they sit at (or host) a table that may be in play.

    Raises:
        PlayerSeated: such a table, or a seat claimed at a public one.
    """
    if session.get(SeatClaimRow, player_id) is not None:
        raise PlayerSeated("this player has a seat at a public table: leave it first")
    recent = utcnow() - TABLE_LIVE
    for table in session.scalars(
        select(TableRow).where(TableRow.phase != OVER, TableRow.updated_at >= recent)
    ):
        if table.host_id == player_id or _names(table.seats, player_id):
            raise PlayerSeated(f"this player sits at table {table.code}: leave it first")


def _delete_private_games(session: Session, player_id: int) -> None:
    """Delete the player's games that no board or other person's record uses (their moves and reviews
    go with them)."""
    owned = set(
        session.scalars(select(GameRow.id).where(GameRow.player_id == player_id, GameRow.table_id.is_(None)))
    )
    used = set(session.scalars(select(DailyResultRow.game_id).where(DailyResultRow.game_id.in_(owned))))
    used |= set(
        session.scalars(select(ChallengeAttemptRow.game_id).where(ChallengeAttemptRow.game_id.in_(owned)))
    )
    used |= set(session.scalars(select(RatedRoundRow.game_id).where(RatedRoundRow.game_id.in_(owned))))
    answered = select(ChallengeAttemptRow.challenge_id).where(ChallengeAttemptRow.player_id != player_id)
    used |= set(
        session.scalars(
            select(ChallengeRow.game_id).where(ChallengeRow.game_id.in_(owned), ChallengeRow.id.in_(answered))
        )
    )
    private = sorted(owned - used)
    for start in range(0, len(private), 500):
        session.execute(delete(GameRow).where(GameRow.id.in_(private[start : start + 500])))


def _rewrite_seats(session: Session, old: int, new: int, *, forget: bool = False) -> None:
    """Write ``new`` for ``old`` in the seats of games and tables and the orders of rated rounds."""
    game_ids = select(GamePlayerRow.game_id).where(GamePlayerRow.player_id == new)
    for game in session.scalars(
        select(GameRow).where(or_(GameRow.player_id == new, GameRow.id.in_(game_ids)))
    ):
        if _names(game.seats, old):
            game.seats = _renamed(game.seats, old, new, forget=forget)
    for table in session.scalars(select(TableRow)):
        if _names(table.seats, old):
            table.seats = _renamed(table.seats, old, new, forget=forget)
    round_ids = select(RatingChangeRow.round_id).where(RatingChangeRow.player_id == new)
    for rated in session.scalars(select(RatedRoundRow).where(RatedRoundRow.id.in_(round_ids))):
        if _names(rated.order, old):
            rated.order = _renamed(rated.order, old, new)


def _standing_key(standing: Any) -> tuple[int, ...]:
    return tuple(int(part) for part in standing) if isinstance(standing, list) else ()


def _keep_earlier(
    session: Session,
    model: Any,
    source: int,
    target_key: Callable[[Any], tuple[Any, ...]],
    fields: tuple[str, ...],
) -> int:
    """Settle the counted attempts (a daily deal's, an answer to a challenge) both players have under
    one key: the earlier one's ``fields`` stay on the target's row, the source's row goes; return how
    many of the source's attempts had a twin."""
    twins = 0
    for theirs in list(session.scalars(select(model).where(model.player_id == source))):
        kept = session.get(model, target_key(theirs))
        if kept is None:
            continue
        twins += 1
        if theirs.made_at < kept.made_at:  # the source's attempt came first: it is the one that counts
            for name in fields:
                setattr(kept, name, getattr(theirs, name))
        session.delete(theirs)
    return twins


def _merge_keyed(session: Session, source: int, target: int) -> int:
    """Settle the rows both players have under one key before the source's are moved: keep the earlier
    counted attempt, the better personal best, one seat; return how many attempts lost."""
    dropped = _keep_earlier(
        session, DailyResultRow, source, lambda row: (row.game, row.rules_key, row.day, target),
        ("game_id", "standing", "result", "made_at"),
    )  # fmt: skip
    dropped += _keep_earlier(
        session, ChallengeAttemptRow, source, lambda row: (row.challenge_id, target),
        ("game_id", "result", "made_at"),
    )  # fmt: skip
    for best in list(session.scalars(select(PersonalBestRow).where(PersonalBestRow.player_id == source))):
        kept_best = session.get(PersonalBestRow, (target, best.game, best.rules_key, best.number))
        if kept_best is None:
            continue
        if _standing_key(best.standing) < _standing_key(kept_best.standing):
            kept_best.standing, kept_best.set_at = best.standing, best.set_at
        session.delete(best)
    for model, keys in (
        (GamePlayerRow, lambda row: (row.game_id, target)),
        (DailyPlayerRow, lambda row: (row.game, row.day, row.address, target)),
        (RatingChangeRow, lambda row: (row.round_id, target)),
    ):
        for row in list(session.scalars(select(model).where(model.player_id == source))):
            if session.get(model, keys(row)) is not None:
                session.delete(row)
    own_games = select(GameRow.id).where(GameRow.player_id == target)
    session.execute(
        delete(GamePlayerRow).where(GamePlayerRow.player_id == source, GamePlayerRow.game_id.in_(own_games))
    )
    for rating in list(session.scalars(select(PuzzleRatingRow).where(PuzzleRatingRow.player_id == source))):
        kept_rating = session.get(PuzzleRatingRow, (target, rating.game))
        if kept_rating is None:
            continue
        # Both rated puzzles of one game: the rating backed by more attempts stays, with the best streak.
        if rating.attempts > kept_rating.attempts:
            kept_rating.rating, kept_rating.rd, kept_rating.volatility = (
                rating.rating,
                rating.rd,
                rating.volatility,
            )
            kept_rating.attempts = rating.attempts
        kept_rating.best_streak = max(kept_rating.best_streak, rating.best_streak)
        session.delete(rating)
    if session.get(SeatClaimRow, target) is not None:
        session.execute(delete(SeatClaimRow).where(SeatClaimRow.player_id == source))
    for report in list(session.scalars(select(NameReportRow).where(
        or_(NameReportRow.reporter_id == source, NameReportRow.reported_id == source)
    ))):  # fmt: skip
        reporter = target if report.reporter_id == source else report.reporter_id
        reported = target if report.reported_id == source else report.reported_id
        twin = session.scalar(select(NameReportRow.id).where(
            NameReportRow.reporter_id == reporter, NameReportRow.reported_id == reported,
            NameReportRow.name == report.name, NameReportRow.id != report.id,
        ))  # fmt: skip
        if reporter == reported or twin is not None:
            session.delete(report)
    session.flush()
    return dropped


def _rated_games(session: Session, players: tuple[int, ...]) -> list[str]:
    """Return the games either player has a rating at."""
    return sorted(set(session.scalars(select(RatingRow.game).where(RatingRow.player_id.in_(players)))))


def _replay_ratings(session: Session, game: str, player_id: int) -> None:
    """Play the person's rating at ``game`` again through every rated round they are in, in the order
    the ratings were made, and keep it: their seat in each round (the rating they played at) and their
    rating after it are rewritten; the other seats keep what they were given then."""
    changes = {
        change.round_id: change
        for change in session.scalars(
            select(RatingChangeRow).where(
                RatingChangeRow.player_id == player_id, RatingChangeRow.game == game
            )
        )
    }
    running = Skill()
    for rated in session.scalars(
        select(RatedRoundRow).where(RatedRoundRow.id.in_(sorted(changes))).order_by(RatedRoundRow.id)
    ):
        order = [dict(seat) for seat in rated.order if isinstance(seat, dict)]
        mine = [index for index, seat in enumerate(order) if seat.get("player") == player_id]
        change = changes[rated.id]
        if len(mine) != 1:  # both merged players sat in this round: it stays as it was rated
            running = Skill(change.mu, change.sigma, running.rounds + 1)
            continue
        entrants = [
            Entrant(running if index == mine[0] else Skill(float(seat["mu"]), float(seat["sigma"])))
            for index, seat in enumerate(order)
        ]
        order[mine[0]].update(mu=running.mu, sigma=running.sigma)
        rated.order = order
        after = rate_round(entrants)[mine[0]]
        running = Skill(after.mu, after.sigma, running.rounds + 1)
        change.mu, change.sigma = running.mu, running.sigma
    session.execute(delete(RatingRow).where(RatingRow.player_id == player_id, RatingRow.game == game))
    if changes:
        session.add(
            RatingRow(
                player_id=player_id, game=game, mu=running.mu, sigma=running.sigma,
                rounds=running.rounds, updated_at=utcnow(),
            )
        )  # fmt: skip
