"""Numbered games: best results, first winners, personal bests, the news told, and concurrent finishes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from parlour.store import Outcome, Store
from parlour.store.messages import record_messages
from parlour.tripeaks.definition import TriPeaksFigures

from .lines import cards_left_after, code_of, winning_line

NUMBER = 6  # deal 6 is won by the test search in a few milliseconds under both rule sets


def play(
    store: Store, player_id: int, moves: Sequence[str], number: int = NUMBER, rules: str = "easy"
) -> Outcome:
    game_id = store.start_game(
        player_id, "tripeaks", rules, code_of(number, rules), ["human"], numbered=number
    )
    if moves:
        store.append_moves(game_id, player_id, 0, moves)
    return store.finish_game(game_id, player_id)


def win(extra: int = 0, number: int = NUMBER, rules: str = "easy") -> list[str]:
    """A winning line made ``extra`` moves longer by taking back and replaying its first removal."""
    line = winning_line(code_of(number, rules))
    assert line is not None
    return [line[0], *(["undo", line[0]] * extra), *line[1:]]


def test_the_first_win_sets_the_record(store: Store) -> None:
    ada = store.create_player("Ada")
    outcome = play(store, ada.player_id, win())
    assert (outcome.first_win, outcome.record_broken, outcome.holds_record) == (True, False, True)
    record = store.numbered_record("tripeaks", "easy", NUMBER)
    assert record is not None and record.won
    assert (*record.standing, record.plays) == (0, len(win()), 1)
    assert (
        record.holder.name == "Ada" and record.first_winner is not None and record.first_winner.name == "Ada"
    )
    assert outcome.record == record
    assert store.numbered_record("tripeaks", "classic", NUMBER) is None
    assert record_messages(outcome, "en") == [f"You are the first to win game #{NUMBER}!"]
    assert record_messages(outcome, "hi") == [f"आप गेम #{NUMBER} जीतने वाले पहले व्यक्ति हैं!"]


def test_fewer_moves_break_the_record_but_the_first_winner_stays(store: Store) -> None:
    ada, bob, cyd = (store.create_player(name) for name in ("Ada", "Bob", "Cyd"))
    play(store, ada.player_id, win(extra=2))
    bob_outcome = play(store, bob.player_id, win())
    assert (bob_outcome.first_win, bob_outcome.record_broken, bob_outcome.holds_record) == (False, True, True)
    assert record_messages(bob_outcome, "fr") == [
        f"Vous avez battu le record de la partie n° {NUMBER}\u202f!"
    ]
    cyd_outcome = play(store, cyd.player_id, win(extra=1))
    assert not (cyd_outcome.first_win or cyd_outcome.record_broken or cyd_outcome.holds_record)
    assert cyd_outcome.personal_best
    record = store.numbered_record("tripeaks", "easy", NUMBER)
    assert record is not None and record.holder.name == "Bob" and record.plays == 3
    assert record.first_winner is not None and record.first_winner.name == "Ada"
    # equalling the record does not take it: the first to reach a result keeps it
    tie = play(store, cyd.player_id, win())
    assert not tie.record_broken and not tie.holds_record and tie.personal_best
    assert store.numbered_record("tripeaks", "easy", NUMBER).holder.name == "Bob"  # type: ignore[union-attr]


def test_holding_the_best_result_without_finishing(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    line = win()
    first = play(store, ada.player_id, line[:5])  # left after five cards
    assert (first.status, first.result["left"]) == ("left", cards_left_after(code_of(NUMBER), line[:5]))
    assert (first.first_win, first.record_broken, first.holds_record) == (False, False, True)
    assert record_messages(first, "hu") == [f"Tiéd ennek a játéknak a legjobb eredménye: #{NUMBER}."]
    second = play(store, bob.player_id, line[:8])
    assert (second.first_win, second.record_broken, second.holds_record) == (False, True, True)
    worse = play(store, ada.player_id, line[:2])
    assert not worse.holds_record and not worse.personal_best and record_messages(worse, "en") == []
    winner = play(store, ada.player_id, line)
    assert winner.first_win and winner.record_broken and winner.holds_record


def test_a_players_own_best_in_the_picker(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    play(store, ada.player_id, win()[:6])
    play(store, bob.player_id, win(extra=1))
    play(store, ada.player_id, win()[:3])
    page = store.numbered_page("tripeaks", "easy", ada.player_id, NUMBER - 2, 5)
    assert [entry.number for entry in page] == list(range(NUMBER - 1, NUMBER + 4))
    entry = page[1]
    assert entry.number == NUMBER and entry.mine is not None and entry.record is not None
    assert entry.mine.standing == (cards_left_after(code_of(NUMBER), win()[:6]), 6)
    assert entry.record.holder.name == "Bob" and entry.record.plays == 3
    assert all(other.record is None and other.mine is None for other in page if other.number != NUMBER)
    assert store.numbered_page("tripeaks", "easy", None, 49_998, 10)[-1].number == 50_000
    assert store.numbered_page("tripeaks", "easy", bob.player_id, 50_000, 10) == []
    assert store.numbered_page("tripeaks", "classic", bob.player_id, NUMBER - 1, 1)[0].record is None


def test_non_numbered_games_touch_no_record(store: Store) -> None:
    ada = store.create_player()
    game_id = store.start_game(ada.player_id, "tripeaks", None, code_of(NUMBER), ["human"])
    store.append_moves(game_id, ada.player_id, 0, win())
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.status == "won" and outcome.numbered is None and not outcome.first_win
    assert store.numbered_record("tripeaks", "easy", NUMBER) is None and record_messages(outcome, "en") == []


@pytest.mark.parametrize("shared", [False, True], ids=["separate-stores", "one-store"])
def test_concurrent_finishes_give_one_consistent_record(
    make_store: Callable[[], Store], shared: bool
) -> None:
    """Eight players finish the same game at once, through their own stores (as separate servers) or
    through one store shared by eight threads (as one server's thread pool)."""
    one = make_store()
    stores = [one if shared else make_store() for _ in range(8)]
    results = [win(extra=extra) for extra in (3, 1, 4, 0, 2, 5, 0, 6)]
    players = [store.create_player(f"P{index}") for index, store in enumerate(stores)]
    games = []
    for store, player, moves in zip(stores, players, results, strict=True):
        game_id = store.start_game(
            player.player_id, "tripeaks", "easy", code_of(NUMBER), ["human"], numbered=NUMBER
        )
        store.append_moves(game_id, player.player_id, 0, moves)
        games.append(game_id)
    barrier = threading.Barrier(len(stores))
    outcomes: list[Outcome | BaseException] = [RuntimeError("not run")] * len(stores)

    def finish(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = stores[index].finish_game(games[index], players[index].player_id)
        except BaseException as error:
            outcomes[index] = error

    threads = [threading.Thread(target=finish, args=(index,)) for index in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [outcome for outcome in outcomes if isinstance(outcome, Outcome)]
    assert len(done) == len(stores), outcomes
    record = stores[0].numbered_record("tripeaks", "easy", NUMBER)
    assert record is not None
    assert record.plays == len(stores)
    assert record.standing == (0, len(win()))
    holders = {players[index].player_id for index, moves in enumerate(results) if len(moves) == len(win())}
    assert record.holder.player_id in holders
    assert sum(outcome.first_win for outcome in done) == 1
    first = next(index for index, outcome in enumerate(done) if outcome.first_win)
    assert record.first_winner is not None and record.first_winner.player_id == players[first].player_id
    # the order the finishes were applied in is one serial order: each broken record beat all before it
    assert sum(outcome.holds_record for outcome in done) >= 1


@pytest.mark.parametrize("rules", ["easy", "classic"])
def test_rules_keep_separate_records(store: Store, rules: str) -> None:
    ada = store.create_player()
    outcome = play(store, ada.player_id, win(rules=rules), rules=rules)
    assert outcome.first_win and outcome.rules_key == rules
    other = "classic" if rules == "easy" else "easy"
    assert store.numbered_record("tripeaks", other, NUMBER) is None


def test_the_picker_asks_the_census_of_the_game_with_numbered_deals(store: Store) -> None:
    from parlour.tripeaks.rules import CLASSIC, EASY
    from parlour.tripeaks.solver import numbered_result

    for rules, name in ((EASY, "easy"), (CLASSIC, "classic")):
        page = store.numbered_page("tripeaks", name, None, 0, 5)
        expected = []
        for number in range(1, 6):
            answer = numbered_result(rules, number)
            expected.append(None if answer is None else answer.winnable)
        assert [entry.winnable for entry in page] == expected


def test_the_picker_takes_its_verdicts_from_the_registered_definition(tmp_path: Path) -> None:
    from dataclasses import replace

    from parlour.games.registry import default_registry
    from parlour.tripeaks.definition import TriPeaksDefinition

    class Oracle(TriPeaksDefinition):
        numbered = replace(
            TriPeaksDefinition.numbered, verdict=lambda rules, number: {1: True, 2: False}.get(number)
        )

    games = default_registry().with_games(Oracle())
    oracle_store = Store(f"sqlite:///{tmp_path / 'oracle.db'}", games=games)
    oracle_store.upgrade()
    page = oracle_store.numbered_page("tripeaks", "easy", None, 0, 3)
    assert [entry.winnable for entry in page] == [True, False, None]


def test_a_game_left_before_its_first_move_is_no_result(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    nothing = play(store, ada.player_id, [])
    assert nothing.status == "left" and nothing.result["empty"] is True
    assert not (nothing.holds_record or nothing.record_broken or nothing.personal_best)
    assert store.numbered_record("tripeaks", "easy", NUMBER) is None
    assert store.statistics(ada.player_id).of("tripeaks", TriPeaksFigures).rules["all"].played == 0
    play(store, bob.player_id, win()[:3])
    play(store, ada.player_id, [])
    record = store.numbered_record("tripeaks", "easy", NUMBER)
    assert record is not None and record.holder.name == "Bob" and record.plays == 1
