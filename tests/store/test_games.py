"""Games as records: moves checked by replay and durable at once, another player's games refused."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import text

from parlour.errors import GameOver, IllegalMove, InvalidCard, InvalidInput
from parlour.store import MoveConflict, Store, UnknownGame
from parlour.store.replays import CorruptRecord
from parlour.tripeaks.definition import TriPeaksFigures

from .lines import code_of, stuck_line, winning_line


def test_a_game_is_stored_as_rules_code_seats_and_moves(store: Store) -> None:
    ada = store.create_player("Ada")
    game_id = store.start_game(ada.player_id, "tripeaks", "classic", code_of(4, "classic"), ["human"])
    line = winning_line(code_of(4, "classic"))
    assert line is not None
    assert store.append_moves(game_id, ada.player_id, 0, line[:3]) == 3
    assert store.append_moves(game_id, ada.player_id, 3, [line[3].lower()]) == 4
    record = store.game_record(game_id, ada.player_id)
    assert record.game == "tripeaks" and record.rules_key == "classic" and record.status == "open"
    assert record.code == "TP1-C-AAAAAAE" and record.seats == ["human"] and record.numbered is None
    assert record.rules["king_ace_linked"] is False
    assert record.moves == list(line[:4])  # stored in canonical form
    assert record.to_json()["moves"] == list(line[:4])


def test_rules_must_agree_with_the_code(store: Store) -> None:
    ada = store.create_player()
    with pytest.raises(InvalidInput, match="other rules"):
        store.start_game(ada.player_id, "tripeaks", "easy", code_of(4, "classic"), ["human"])
    with pytest.raises(InvalidInput, match="not a deal code"):
        store.start_game(ada.player_id, "tripeaks", None, "TP9-X", ["human"])
    with pytest.raises(InvalidInput, match="unknown game"):
        store.start_game(ada.player_id, "chess", None, code_of(1), ["human"])
    assert store.open_games(ada.player_id) == []


@pytest.mark.parametrize(
    ("number", "rules", "code", "message"),
    [
        (0, "easy", "TP1-E-AAAAAAA", "from 1 to 50,000"),
        (50_001, "easy", code_of(50_001), "from 1 to 50,000"),
        (7, "easy", code_of(8), "deal number 7"),
        (7, None, "TP1-E-AAAAAAH-O", "Easy or Classic"),
    ],
)
def test_numbered_games_are_checked(
    store: Store, number: int, rules: str | None, code: str, message: str
) -> None:
    ada = store.create_player()
    with pytest.raises(InvalidInput, match=message):
        store.start_game(ada.player_id, "tripeaks", rules, code, ["human"], numbered=number)


def test_an_illegal_move_is_refused_and_nothing_is_stored(store: Store) -> None:
    ada = store.create_player()
    code = code_of(2)
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"])
    line = winning_line(code)
    assert line is not None
    store.append_moves(game_id, ada.player_id, 0, line[:2])
    with pytest.raises(IllegalMove, match=r"move 6 .undo.") as caught:
        store.append_moves(game_id, ada.player_id, 2, [line[2], "undo", "undo", "undo", "undo"])
    assert caught.value.code == "nothing_to_undo"
    with pytest.raises(InvalidCard, match="'XX'"):
        store.append_moves(game_id, ada.player_id, 2, ["XX"])
    assert store.game_record(game_id, ada.player_id).moves == list(line[:2])


def test_retries_are_harmless_and_conflicts_refused(store: Store) -> None:
    ada = store.create_player()
    code = code_of(2)
    line = winning_line(code)
    assert line is not None
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"])
    assert store.append_moves(game_id, ada.player_id, 0, line[:3]) == 3
    assert store.append_moves(game_id, ada.player_id, 0, line[:3]) == 3  # the same request again
    assert store.append_moves(game_id, ada.player_id, 1, line[1:5]) == 5  # overlapping, then new
    with pytest.raises(MoveConflict, match="differ"):
        store.append_moves(game_id, ada.player_id, 4, ["draw"])
    with pytest.raises(MoveConflict, match="index 9"):
        store.append_moves(game_id, ada.player_id, 9, ["draw"])
    assert store.game_record(game_id, ada.player_id).moves == list(line[:5])


def test_another_players_game_is_refused_like_a_missing_one(store: Store) -> None:
    ada, eve = store.create_player("Ada"), store.create_player("Eve")
    game_id = store.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    store.append_moves(game_id, ada.player_id, 0, ["draw"])
    for action in (
        lambda: store.game_record(game_id, eve.player_id),
        lambda: store.append_moves(game_id, eve.player_id, 1, ["draw"]),
        lambda: store.finish_game(game_id, eve.player_id),
        lambda: store.game_record("no-such-game", ada.player_id),
    ):
        with pytest.raises(UnknownGame, match="you have no game"):
            action()
    assert store.open_games(eve.player_id) == []
    assert store.game_record(game_id, ada.player_id).moves == ["draw"]
    assert store.game_record(game_id, ada.player_id).status == "open"


def test_open_games_resume_and_finished_games_take_no_more_moves(store: Store) -> None:
    ada = store.create_player()
    first = store.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    second = store.start_game(ada.player_id, "tripeaks", None, code_of(4), ["human"])
    store.append_moves(second, ada.player_id, 0, ["draw"])
    assert [game.id for game in store.open_games(ada.player_id, "tripeaks")] == [first, second]
    assert store.open_games(ada.player_id, "thirteen") == []
    outcome = store.finish_game(first, ada.player_id)
    assert outcome.status == "left" and outcome.result["left"] == 28
    assert [game.game_id for game in store.open_games(ada.player_id)] == [second]
    with pytest.raises(GameOver):
        store.append_moves(first, ada.player_id, 0, ["draw"])


def test_results_come_from_the_replay(store: Store) -> None:
    ada = store.create_player()
    code = code_of(6)
    line = winning_line(code)
    assert line is not None
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"])
    store.append_moves(game_id, ada.player_id, 0, line)
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.status == "won"
    assert outcome.result == {
        "status": "won",
        "won": True,
        "left": 0,
        "moves": len(line),
        "score": 500 - len(line) + 300,
        "empty": False,
    }
    assert store.finish_game(game_id, ada.player_id) == outcome  # finishing again changes nothing


def test_a_stuck_game(store: Store) -> None:
    ada = store.create_player()
    code = code_of(2)
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"])
    store.append_moves(game_id, ada.player_id, 0, stuck_line(code))
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.result["moves"] == 23 and outcome.result["left"] == 28
    assert outcome.status in ("stuck", "left")


def test_a_forged_record_in_the_database_is_not_believed(store: Store) -> None:
    ada = store.create_player()
    code = code_of(4)
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"], numbered=4)
    store.append_moves(game_id, ada.player_id, 0, ["draw"])
    with store.engine.begin() as connection:  # somebody writes moves behind the store's back
        connection.execute(
            text("insert into game_moves (game_id, \"index\", move) values (:g, 1, 'KS'), (:g, 2, 'KH')"),
            {"g": game_id},
        )
        connection.execute(
            text("update games set result = :r where id = :g"),
            {"g": game_id, "r": '{"won": true, "left": 0}'},
        )
    with pytest.raises(CorruptRecord, match="stored move"):
        store.finish_game(game_id, ada.player_id)
    assert store.numbered_record("tripeaks", "easy", 4) is None
    assert store.statistics(ada.player_id).of("tripeaks", TriPeaksFigures).rules["all"].played == 0


def test_a_batch_of_appends_shares_one_transaction_and_refuses_items_alone(store: Store) -> None:
    ada, eve = store.create_player("Ada"), store.create_player("Eve")
    line = winning_line(code_of(2))
    assert line is not None
    first = store.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    second = store.start_game(eve.player_id, "tripeaks", None, code_of(2), ["human"])
    results = store.append_moves_many(
        [
            (first, ada.player_id, 0, line[:2]),
            (second, eve.player_id, 0, ["draw"]),
            (first, ada.player_id, 2, line[2:4]),  # follows the first item of the same game
            (second, ada.player_id, 1, ["draw"]),  # Ada may not touch Eve's game
            (second, eve.player_id, 1, ["QX"]),  # not a card
        ]
    )
    assert results[:3] == [2, 1, 4]
    assert isinstance(results[3], UnknownGame) and isinstance(results[4], InvalidCard)
    assert store.game_record(first, ada.player_id).moves == list(line[:4])
    assert store.game_record(second, eve.player_id).moves == ["draw"]


def test_two_servers_appending_to_one_game_at_once_store_one_move(make_store: Callable[[], Store]) -> None:
    first, second = make_store(), make_store()
    ada = first.create_player("Ada")
    game_id = first.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    line = winning_line(code_of(2))
    assert line is not None
    barrier = threading.Barrier(2)
    results: list[object] = [None, None]

    def append(index: int, store: Store, move: str) -> None:
        barrier.wait()
        try:
            results[index] = store.append_moves_many([(game_id, ada.player_id, 0, [move])])[0]
        except Exception as error:  # anything but a per-item answer is a failure of the test
            results[index] = error

    threads = [
        threading.Thread(target=append, args=(0, first, line[0])),
        threading.Thread(target=append, args=(1, second, "draw")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = first.game_record(game_id, ada.player_id).moves
    assert len(stored) == 1 and stored[0] in (line[0], "draw")
    assert sorted(map(type, results), key=str) == sorted([int, MoveConflict], key=str), results
