"""Statistics per player, computed from the replayed results of their finished games."""

from __future__ import annotations

import pytest

from parlour.store import Statistics, Store, UnknownPlayer
from parlour.thirteen.definition import ThirteenStatistics
from parlour.tripeaks.definition import TriPeaksFigures

from .lines import code_of, stuck_line, winning_line


def finish(store: Store, player_id: int, number: int, rules: str, won: bool) -> None:
    code = code_of(number, rules)
    game_id = store.start_game(player_id, "tripeaks", rules, code, ["human"])
    line = winning_line(code) if won else stuck_line(code)
    assert line is not None
    store.append_moves(game_id, player_id, 0, line)
    store.finish_game(game_id, player_id)


def test_tripeaks_statistics_per_rule_set(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    plan = [(2, "easy", True), (4, "easy", True), (6, "easy", False), (7, "easy", True), (2, "classic", True)]
    for number, rules, won in plan:
        finish(store, ada.player_id, number, rules, won)
    open_game = store.start_game(ada.player_id, "tripeaks", None, code_of(1), ["human"])
    store.append_moves(open_game, ada.player_id, 0, ["draw"])  # still open: not counted
    stats = store.statistics(ada.player_id)
    easy = stats.of("tripeaks", TriPeaksFigures).rules["easy"]
    wins = [len(winning_line(code_of(n, "easy")) or ()) for n in (2, 4, 7)]
    assert (easy.played, easy.won, easy.current_streak, easy.longest_streak) == (4, 3, 1, 2)
    assert easy.win_rate == 0.75
    assert easy.average_moves_of_wins == pytest.approx(sum(wins) / 3)
    assert easy.best_score == 800 - min(wins)
    assert (
        stats.of("tripeaks", TriPeaksFigures).rules["classic"].played == 1
        and stats.of("tripeaks", TriPeaksFigures).rules["classic"].current_streak == 1
    )
    everything = stats.of("tripeaks", TriPeaksFigures).rules["all"]
    assert (everything.played, everything.won, everything.current_streak, everything.longest_streak) == (
        5,
        4,
        2,
        2,
    )
    assert [game.won for game in stats.of("tripeaks", TriPeaksFigures).recent] == [
        True,
        True,
        False,
        True,
        True,
    ]
    assert store.statistics(bob.player_id).of("tripeaks", TriPeaksFigures).rules["all"].played == 0
    assert store.statistics(bob.player_id).of("tripeaks", TriPeaksFigures).rules["all"].win_rate is None


def test_statistics_of_nobody() -> None:
    from parlour.thirteen.definition import ThirteenDefinition
    from parlour.tripeaks.definition import TriPeaksDefinition

    empty = Statistics({"tripeaks": TriPeaksDefinition().fold([]), "thirteen": ThirteenDefinition().fold([])})
    assert (
        empty.of("tripeaks", TriPeaksFigures).rules["all"].played == 0
        and empty.of("thirteen", ThirteenStatistics).games == 0
    )


def test_statistics_of_an_unknown_player(store: Store) -> None:
    with pytest.raises(UnknownPlayer):
        store.statistics(999)


def test_the_fastest_win_is_kept_per_rule_set(store: Store) -> None:
    from datetime import timedelta

    from sqlalchemy import select, update

    from parlour.store.models import GameRow
    from parlour.tripeaks.definition import clock

    ada = store.create_player("Ada")
    for number, minutes in ((2, 7), (4, 3)):
        code = code_of(number, "easy")
        game_id = store.start_game(ada.player_id, "tripeaks", "easy", code, ["human"])
        store.append_moves(game_id, ada.player_id, 0, winning_line(code) or ())
        store.finish_game(game_id, ada.player_id)
        with store.engine.begin() as connection:  # dealt that many minutes before it ended
            finished = connection.execute(
                select(GameRow.finished_at).where(GameRow.id == game_id)
            ).scalar_one()
            assert finished is not None
            dealt = finished - timedelta(minutes=minutes)
            connection.execute(update(GameRow).where(GameRow.id == game_id).values(created_at=dealt))
    easy = store.statistics(ada.player_id).of("tripeaks", TriPeaksFigures).rules["easy"]
    assert easy.best_time is not None and abs(easy.best_time - 180) < 1
    assert clock(easy.best_time) == "3:00" and clock(3725) == "1:02:05" and clock(None) == "–"
