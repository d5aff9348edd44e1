"""Puzzles in the database (decision 0065): each game's pool of puzzles with their Glicko-2 ratings,
the next puzzle for a player, the puzzle of the day, attempts and the players' puzzle ratings.

A player's first attempt at a puzzle is rated (both ratings move, in one transaction, the rows locked);
later attempts at it, and streak attempts, are kept unrated. Every rated attempt keeps both ratings as
they were before it, so :func:`replayed_ratings` can compute every rating again from the attempts.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from sqlalchemy import func, select

from parlour.errors import InvalidInput
from parlour.games.puzzle_ratings import Glicko, attempt
from parlour.store.errors import StoreUnavailable, conflict
from parlour.store.models import DailyPuzzleRow, PuzzleAttemptRow, PuzzleRatingRow, PuzzleRow
from parlour.store.repository import Repository
from parlour.store.rows import utcnow

MODES: Final = ("rated", "daily", "streak")
DIFFICULTY_RATINGS: Final = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}
"""A new puzzle's rating by its difficulty (deviation 350: its attempts soon say more)."""
NEAREST: Final = 12
"""The next puzzle is drawn from this many unplayed puzzles nearest the player's rating."""
STREAK_STEP: Final = 60.0
"""A streak's puzzles get harder by this much rating each, from 1100."""


class UnknownPuzzle(InvalidInput):
    """No puzzle has that id (or none of that game)."""

    code = "no_such_puzzle"


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """A stored puzzle: its id and game, the deal's code, the moves to its position, the answer, its
    themes, difficulty, the solver's line after the answer, its source, rating and rated attempts."""

    puzzle_id: str
    game: str
    code: str
    moves: tuple[str, ...]
    answer: str
    themes: tuple[str, ...]
    difficulty: str
    line: tuple[str, ...]
    source: str
    rating: Glicko
    attempts: int


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """What an attempt did: whether it ``solved`` the puzzle, whether it was ``rated``, and the player's
    and the puzzle's ratings before and after it (the same before and after for an unrated one; the
    player's are None for a visitor with no player)."""

    solved: bool
    rated: bool
    player_before: Glicko | None
    player_after: Glicko | None
    puzzle_before: Glicko
    puzzle_after: Glicko


def puzzle_id(game: str, code: str, moves: Iterable[str]) -> str:
    """Return the id of the puzzle at the position ``moves`` reach in ``code``'s deal of ``game``."""
    return hashlib.sha256(f"{game}|{code}|{' '.join(moves)}".encode()).hexdigest()[:16]


def _record(row: PuzzleRow) -> PuzzleRecord:
    return PuzzleRecord(
        row.id, row.game, row.code, tuple(row.moves), row.answer, tuple(row.themes), row.difficulty,
        tuple(row.line), row.source, Glicko(row.rating, row.rd, row.volatility), row.attempts,
    )  # fmt: skip


class PuzzlesStore(Repository):
    """The puzzle methods of :class:`~parlour.store.Store`."""

    def add_puzzles(self, game: str, puzzles: Iterable[Mapping[str, Any]]) -> int:
        """Add puzzles of ``game`` (each ``{code, moves, answer, themes, difficulty, line, source}``, as
        the generators print them) that are not kept yet; return how many were added."""
        now = utcnow()
        added = 0
        with self._write() as session:
            known = set(session.scalars(select(PuzzleRow.id).where(PuzzleRow.game == game)))
            for puzzle in puzzles:
                moves = [str(move) for move in puzzle["moves"]]
                key = puzzle_id(game, str(puzzle["code"]), moves)
                if key in known:
                    continue
                known.add(key)
                difficulty = str(puzzle.get("difficulty", "medium"))
                session.add(
                    PuzzleRow(
                        id=key, game=game, code=str(puzzle["code"]), moves=moves,
                        answer=str(puzzle["answer"]),
                        themes=list(puzzle.get("themes", [])), difficulty=difficulty,
                        line=list(puzzle.get("line", [])), source=str(puzzle.get("source", ""))[:64],
                        rating=DIFFICULTY_RATINGS.get(difficulty, 1500.0), rd=350.0, volatility=0.06,
                        attempts=0, created_at=now,
                    )
                )  # fmt: skip
                added += 1
        return added

    def puzzle_count(self, game: str) -> int:
        """Return how many puzzles ``game`` has."""
        with self._read() as session:
            return int(session.scalar(select(func.count()).where(PuzzleRow.game == game)) or 0)

    def puzzle(self, game: str, puzzle_id: str) -> PuzzleRecord:
        """Return a puzzle of ``game``.

        Raises:
            UnknownPuzzle: no such puzzle of that game.
        """
        with self._read() as session:
            row = (
                session.get(PuzzleRow, puzzle_id)
                if isinstance(puzzle_id, str) and len(puzzle_id) <= 16
                else None
            )
            if row is None or row.game != game:
                raise UnknownPuzzle(f"no {game} puzzle has the id {puzzle_id!r}")
            return _record(row)

    def puzzle_rating(self, game: str, player_id: int | None) -> Glicko | None:
        """Return the player's puzzle rating at ``game`` (None before their first rated attempt)."""
        if player_id is None:
            return None
        with self._read() as session:
            row = session.get(PuzzleRatingRow, (player_id, game))
            return None if row is None else Glicko(row.rating, row.rd, row.volatility)

    def best_streak(self, game: str, player_id: int | None) -> int:
        """Return the player's longest streak of solved puzzles at ``game`` (0 without one)."""
        if player_id is None:
            return 0
        with self._read() as session:
            row = session.get(PuzzleRatingRow, (player_id, game))
            return 0 if row is None else row.best_streak

    def next_puzzle(self, game: str, player_id: int | None, *, seed: int | None = None) -> PuzzleRecord:
        """Return a puzzle the player has not tried, near their rating (1500 before they have one):
        one of the :data:`NEAREST` nearest, at random.

        Raises:
            UnknownPuzzle: ``game`` has no puzzle (or the player has tried them all).
        """
        rating = self.puzzle_rating(game, player_id)
        target = rating.rating if rating is not None else 1500.0
        return self._near(game, player_id, target, seed)

    def streak_puzzle(
        self, game: str, player_id: int | None, solved: int, *, seed: int | None = None
    ) -> PuzzleRecord:
        """Return the next puzzle of a streak that has ``solved`` puzzles so far: one the player has not
        tried near 1100 + :data:`STREAK_STEP` a solved puzzle.

        Raises:
            UnknownPuzzle: ``game`` has no puzzle left for the player.
        """
        return self._near(game, player_id, 1100.0 + STREAK_STEP * max(0, solved), seed)

    def _near(self, game: str, player_id: int | None, target: float, seed: int | None) -> PuzzleRecord:
        with self._read() as session:
            tried = (
                select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.player_id == player_id)
                if player_id is not None
                else None
            )
            query = select(PuzzleRow).where(PuzzleRow.game == game)
            if tried is not None:
                query = query.where(PuzzleRow.id.not_in(tried))
            rows = list(
                session.scalars(
                    query.order_by(func.abs(PuzzleRow.rating - target), PuzzleRow.id).limit(NEAREST)
                )
            )
        if not rows:
            raise UnknownPuzzle(f"no {game} puzzle is left to try")
        return _record(
            random.Random(seed).choice(rows) if seed is not None else random.SystemRandom().choice(rows)
        )

    def daily_puzzle(self, game: str, day: date) -> PuzzleRecord:
        """Return the puzzle of ``day`` (UTC) of ``game``: chosen on the day's first request among the
        puzzles of medium rating (1300 to 1900) not yet a day's puzzle, the same for everybody.

        Raises:
            UnknownPuzzle: ``game`` has no puzzle.
        """
        with self._read() as session:
            chosen = session.get(DailyPuzzleRow, (game, day))
            if chosen is not None:
                return _record(session.get_one(PuzzleRow, chosen.puzzle_id))
        digest = int.from_bytes(hashlib.sha256(f"{game}|{day.isoformat()}".encode()).digest()[:8], "big")
        try:
            with self._write() as session:
                used = select(DailyPuzzleRow.puzzle_id).where(DailyPuzzleRow.game == game)
                pool = list(session.scalars(
                    select(PuzzleRow.id)
                    .where(PuzzleRow.game == game, PuzzleRow.id.not_in(used))
                    .where(PuzzleRow.rating.between(1300, 1900))
                    .order_by(PuzzleRow.id)
                ))  # fmt: skip
                if not pool:
                    pool = list(
                        session.scalars(
                            select(PuzzleRow.id).where(PuzzleRow.game == game).order_by(PuzzleRow.id)
                        )
                    )
                if not pool:
                    raise UnknownPuzzle(f"{game} has no puzzle")
                session.add(DailyPuzzleRow(game=game, day=day, puzzle_id=pool[digest % len(pool)]))
        except StoreUnavailable as error:  # another process chose the day's puzzle at the same moment
            if not conflict(error):
                raise
        with self._read() as session:
            chosen = session.get_one(DailyPuzzleRow, (game, day))
            return _record(session.get_one(PuzzleRow, chosen.puzzle_id))

    def attempt_puzzle(
        self, game: str, puzzle_id: str, player_id: int, move: str, mode: str
    ) -> AttemptResult:
        """Keep a player's attempt at a puzzle (``move``, in the game's words) and return what it did.
        The player's first attempt at the puzzle is rated, unless it is part of a streak; the two
        ratings move together, the rows locked, so that two attempts at once count in turn.

        Raises:
            UnknownPuzzle: no such puzzle of ``game``.
            ValueError: an unknown mode.
        """
        if mode not in MODES:
            raise ValueError(f"no such puzzle mode: {mode!r}")
        now = utcnow()
        with self._write() as session:
            row = session.get(PuzzleRow, puzzle_id, with_for_update=True) if len(puzzle_id) <= 16 else None
            if row is None or row.game != game:
                raise UnknownPuzzle(f"no {game} puzzle has the id {puzzle_id!r}")
            solved = move == row.answer
            tried = session.scalar(
                select(func.count()).where(
                    PuzzleAttemptRow.puzzle_id == puzzle_id, PuzzleAttemptRow.player_id == player_id
                )
            )
            rated = mode != "streak" and not tried
            mine = session.get(PuzzleRatingRow, (player_id, game), with_for_update=True)
            before = Glicko(mine.rating, mine.rd, mine.volatility) if mine is not None else Glicko()
            puzzle_before = Glicko(row.rating, row.rd, row.volatility)
            kept = PuzzleAttemptRow(
                puzzle_id=puzzle_id, player_id=player_id, move=move[:32], solved=solved, mode=mode,
                rated=rated, made_at=now,
            )  # fmt: skip
            if not rated:
                session.add(kept)
                return AttemptResult(solved, False, before, before, puzzle_before, puzzle_before)
            player_after, puzzle_after = attempt(before, puzzle_before, solved)
            kept.player_rating, kept.player_rd, kept.player_volatility = (
                before.rating,
                before.rd,
                before.volatility,
            )
            kept.puzzle_rating, kept.puzzle_rd, kept.puzzle_volatility = (
                puzzle_before.rating, puzzle_before.rd, puzzle_before.volatility
            )  # fmt: skip
            session.add(kept)
            if mine is None:
                mine = PuzzleRatingRow(player_id=player_id, game=game, attempts=0, best_streak=0)
                session.add(mine)
            mine.rating, mine.rd, mine.volatility = (
                player_after.rating,
                player_after.rd,
                player_after.volatility,
            )
            mine.attempts = (mine.attempts or 0) + 1
            mine.updated_at = now
            row.rating, row.rd, row.volatility = puzzle_after.rating, puzzle_after.rd, puzzle_after.volatility
            row.attempts += 1
            return AttemptResult(solved, True, before, player_after, puzzle_before, puzzle_after)

    def streak_attempts(self, game: str, player_id: int, limit: int = 500) -> list[bool]:
        """Return whether each of the player's last ``limit`` streak attempts at ``game`` solved its
        puzzle, oldest first (a streak is the solved ones since the last miss)."""
        with self._read() as session:
            found = list(session.scalars(
                select(PuzzleAttemptRow.solved)
                .join(PuzzleRow, PuzzleRow.id == PuzzleAttemptRow.puzzle_id)
                .where(PuzzleRow.game == game, PuzzleAttemptRow.player_id == player_id)
                .where(PuzzleAttemptRow.mode == "streak")
                .order_by(PuzzleAttemptRow.id.desc())
                .limit(limit)
            ))  # fmt: skip
        return [bool(solved) for solved in reversed(found)]

    def end_streak(self, game: str, player_id: int, solved: int) -> int:
        """Keep a streak of ``solved`` puzzles that just ended; return the player's best streak."""
        now = utcnow()
        with self._write() as session:
            mine = session.get(PuzzleRatingRow, (player_id, game), with_for_update=True)
            if mine is None:
                start = Glicko()
                mine = PuzzleRatingRow(
                    player_id=player_id, game=game, rating=start.rating, rd=start.rd,
                    volatility=start.volatility, attempts=0, best_streak=0, updated_at=now,
                )  # fmt: skip
                session.add(mine)
            mine.best_streak = max(mine.best_streak or 0, solved)
            return mine.best_streak

    def rated_attempts(self, game: str) -> list[dict[str, Any]]:
        """Return every rated attempt at ``game``'s puzzles in the order they were made, with both
        ratings before it: what :func:`replayed_ratings` reads."""
        with self._read() as session:
            rows = session.execute(
                select(PuzzleAttemptRow)
                .join(PuzzleRow, PuzzleRow.id == PuzzleAttemptRow.puzzle_id)
                .where(PuzzleRow.game == game, PuzzleAttemptRow.rated.is_(True))
                .order_by(PuzzleAttemptRow.id)
            ).scalars()
            return [
                {
                    "puzzle": row.puzzle_id, "player": row.player_id, "solved": row.solved,
                    "player_before": [row.player_rating, row.player_rd, row.player_volatility],
                    "puzzle_before": [row.puzzle_rating, row.puzzle_rd, row.puzzle_volatility],
                }
                for row in rows
            ]  # fmt: skip


def replayed_ratings(
    attempts: Iterable[Mapping[str, Any]], puzzles: Mapping[str, Glicko]
) -> tuple[dict[int, Glicko], dict[str, Glicko]]:
    """Return every player's and puzzle's rating computed again from the rated attempts alone (in
    order), each puzzle starting at ``puzzles`` (its first rating) and each player at 1500 ± 350."""
    players: dict[int, Glicko] = {}
    rated = dict(puzzles)
    for each in attempts:
        player = players.get(int(each["player"]), Glicko())
        puzzle = rated[str(each["puzzle"])]
        players[int(each["player"])], rated[str(each["puzzle"])] = attempt(
            player, puzzle, bool(each["solved"])
        )
    return players, rated
