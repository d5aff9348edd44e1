"""Puzzles in the database (decision 0065): a pool kept once per position, the next puzzle one not tried
near the player's rating, one puzzle a day for everybody, the first attempt rated and later ones not,
and every rating equal to what the stored attempts compute again."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date

import pytest

from parlour.games.puzzle_ratings import Glicko
from parlour.store import Store
from parlour.store.puzzles import DIFFICULTY_RATINGS, UnknownPuzzle, replayed_ratings


def pool(count: int) -> list[dict[str, object]]:
    return [
        {
            "code": f"TP1-E-AAAA{n:03d}"[:13],
            "moves": ["draw"] * (n % 5) + [f"K{'CDHS'[n % 4]}"],
            "answer": "draw",
            "themes": ["draw"],
            "difficulty": ("easy", "medium", "hard")[n % 3],
            "line": ["AC"],
            "source": f"numbered {n}",
        }
        for n in range(count)
    ]


def test_a_position_is_kept_once(store: Store) -> None:
    assert store.add_puzzles("tripeaks", pool(30)) == 30
    assert store.add_puzzles("tripeaks", pool(40)) == 10
    assert store.puzzle_count("tripeaks") == 40 and store.puzzle_count("thirteen") == 0
    with pytest.raises(UnknownPuzzle):
        store.next_puzzle("thirteen", None)
    with pytest.raises(UnknownPuzzle):
        store.puzzle("tripeaks", "x" * 400)


def test_the_first_attempt_is_rated_and_later_ones_are_not(store: Store) -> None:
    store.add_puzzles("tripeaks", pool(10))
    ada = store.create_player("Ada").player_id
    puzzle = store.next_puzzle("tripeaks", ada, seed=1)
    first = store.attempt_puzzle("tripeaks", puzzle.puzzle_id, ada, "draw", "rated")
    assert first.solved and first.rated and first.player_after is not None
    assert first.player_after.rating > 1500 and first.puzzle_after.rating < first.puzzle_before.rating
    assert first.puzzle_before.rating in DIFFICULTY_RATINGS.values()
    again = store.attempt_puzzle("tripeaks", puzzle.puzzle_id, ada, "KC", "rated")
    assert not again.solved and not again.rated and again.player_after == first.player_after
    assert store.puzzle_rating("tripeaks", ada) == first.player_after
    assert all(store.next_puzzle("tripeaks", ada, seed=s).puzzle_id != puzzle.puzzle_id for s in range(20))
    streak = store.attempt_puzzle(
        "tripeaks", store.streak_puzzle("tripeaks", ada, 0, seed=2).puzzle_id, ada, "draw", "streak"
    )
    assert not streak.rated
    assert store.end_streak("tripeaks", ada, 3) == 3 and store.end_streak("tripeaks", ada, 1) == 3


def test_the_days_puzzle_is_the_same_for_every_process(make_store: Callable[[], Store]) -> None:
    first, second = make_store(), make_store()
    first.add_puzzles("tripeaks", pool(20))
    day = date(2026, 12, 6)
    chosen = first.daily_puzzle("tripeaks", day)
    assert second.daily_puzzle("tripeaks", day) == first.daily_puzzle("tripeaks", day) == chosen
    assert 1300 <= chosen.rating.rating <= 1900
    assert first.daily_puzzle("tripeaks", date(2026, 12, 7)).puzzle_id != chosen.puzzle_id


def test_every_rating_is_what_the_stored_attempts_compute(store: Store) -> None:
    store.add_puzzles("tripeaks", pool(25))
    players = [store.create_player(name).player_id for name in ("Ada", "Bob", "Cy")]
    starts = {p.puzzle_id: p.rating for p in (store.puzzle("tripeaks", pid) for pid in ids(store))}
    chance = random.Random(7)
    for _ in range(60):
        who = chance.choice(players)
        try:
            puzzle = store.next_puzzle("tripeaks", who, seed=chance.randrange(1000))
        except UnknownPuzzle:
            continue
        store.attempt_puzzle("tripeaks", puzzle.puzzle_id, who, chance.choice(["draw", "KC"]), "rated")
    mine, theirs = replayed_ratings(store.rated_attempts("tripeaks"), starts)
    for player in players:
        kept = store.puzzle_rating("tripeaks", player)
        assert (kept is None and player not in mine) or (kept is not None and _close(kept, mine[player]))
    for puzzle_id, rating in theirs.items():
        assert _close(store.puzzle("tripeaks", puzzle_id).rating, rating)


def ids(store: Store) -> list[str]:
    from sqlalchemy import select

    from parlour.store.models import PuzzleRow

    with store.engine.connect() as connection:
        return list(connection.execute(select(PuzzleRow.id)).scalars())


def _close(a: Glicko, b: Glicko) -> bool:
    return (
        abs(a.rating - b.rating) < 1e-6
        and abs(a.rd - b.rd) < 1e-6
        and abs(a.volatility - b.volatility) < 1e-9
    )
