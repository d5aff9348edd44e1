"""Thirteen matches as records: every seat's moves in turn order, results from the replay."""

from __future__ import annotations

import pytest

from parlour.errors import IllegalMove, InvalidInput
from parlour.store import Store
from parlour.thirteen import Match
from parlour.thirteen.definition import ThirteenStatistics

CODE = "TH1-AAAAAAB"
SEATS = ["human", {"kind": "bot", "strength": "greedy", "seed": 1}, {"kind": "bot"}, {"kind": "bot"}]


def first_legal_line(code: str, limit: int | None = None) -> tuple[list[str], Match]:
    """Every seat plays its first legal move until the match ends (or ``limit`` moves)."""
    match = Match.from_code(code)
    moves: list[str] = []
    while not match.over and (limit is None or len(moves) < limit):
        seat = match.turn
        assert seat is not None
        move = match.legal_moves(seat)[0]
        match.apply(seat, move)
        moves.append(str(move))
    return moves, match


def test_a_whole_match_is_stored_and_replayed(store: Store) -> None:
    ada = store.create_player()
    moves, match = first_legal_line(CODE)
    game_id = store.start_game(ada.player_id, "thirteen", None, CODE.lower(), SEATS)
    for start in range(0, len(moves), 37):
        store.append_moves(game_id, ada.player_id, start, moves[start : start + 37])
    record = store.game_record(game_id, ada.player_id)
    assert record.code == CODE and record.rules_key == "standard" and record.moves == moves
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.status == "finished"
    assert outcome.result["rounds"] == len(match.results)
    assert outcome.result["points"] == match.scores[0]
    assert outcome.result["won"] == (0 in match.winners)
    assert sum(outcome.result["places"]) == len(match.results)
    stats = store.statistics(ada.player_id).of("thirteen", ThirteenStatistics)
    assert (stats.games, stats.rounds, stats.points, stats.won) == (
        1,
        len(match.results),
        match.scores[0],
        int(0 in match.winners),
    )
    assert list(stats.places) == outcome.result["places"]


def test_a_move_out_of_turn_order_is_refused(store: Store) -> None:
    ada = store.create_player()
    game_id = store.start_game(ada.player_id, "thirteen", "standard", CODE, SEATS)
    with pytest.raises(IllegalMove):
        store.append_moves(game_id, ada.player_id, 0, ["pass"])  # nobody may pass on the opening lead
    assert store.game_record(game_id, ada.player_id).moves == []


def test_a_left_match_counts_its_finished_rounds(store: Store) -> None:
    ada = store.create_player()
    full, match = first_legal_line(CODE)
    partial, _ = first_legal_line(CODE, limit=len(full) // 2)
    game_id = store.start_game(ada.player_id, "thirteen", None, CODE, [*SEATS[1:2], "human", *SEATS[2:]])
    store.append_moves(game_id, ada.player_id, 0, partial)
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.status == "left" and outcome.result["seat"] == 1 and not outcome.result["won"]
    assert 0 < outcome.result["rounds"] < len(match.results)


def test_a_match_the_person_never_played_in_counts_for_nothing(store: Store) -> None:
    ada = store.create_player()
    match = Match.from_code(CODE)
    person = 2 if match.turn != 2 else 3
    seats = ["human" if seat == person else {"kind": "bot"} for seat in range(4)]
    moves: list[str] = []
    while match.turn != person:  # only the computer players move before the person leaves
        seat = match.turn
        assert seat is not None
        move = match.legal_moves(seat)[0]
        match.apply(seat, move)
        moves.append(str(move))
    assert moves
    game_id = store.start_game(ada.player_id, "thirteen", None, CODE, seats)
    store.append_moves(game_id, ada.player_id, 0, moves)
    outcome = store.finish_game(game_id, ada.player_id)
    assert outcome.status == "left" and outcome.result["empty"] is True
    assert store.statistics(ada.player_id).of("thirteen", ThirteenStatistics).played == 0


@pytest.mark.parametrize(
    ("rules", "code", "seats", "message"),
    [
        ({"target_points": "ten"}, CODE, SEATS, "target_points"),
        (None, "TH1-AAA", SEATS, "not a Thirteen code"),
        (None, CODE, SEATS[:3], "4 seats"),
    ],
)
def test_bad_matches_are_refused(
    store: Store, rules: object, code: str, seats: list[object], message: str
) -> None:
    ada = store.create_player()
    with pytest.raises(InvalidInput, match=message):
        store.start_game(ada.player_id, "thirteen", rules, code, seats)


def test_every_person_at_a_table_gets_their_own_result_and_statistics(store: Store) -> None:
    """A friends' table's match is the host's record, marked ``owner`` wherever the host sits; the
    other people are linked to it and, when it ends, get the result of their own seat."""
    from parlour.thirteen.definition import ThirteenDefinition

    ana, bence, chloe = (store.create_player(name).player_id for name in ("Ana", "Bence", "Chloé"))
    seats = [
        {"kind": "human", "player": bence, "name": "Bence"},
        {"kind": "bot", "strength": "greedy"},
        {"kind": "human", "player": ana, "name": "Ana", "owner": True},  # the host, not the first person
        {"kind": "human", "player": chloe, "name": "Chloé"},
    ]
    spec = ThirteenDefinition().prepare({}, CODE, seats, None)
    game_id = store.record_game(ana, ThirteenDefinition(), spec)
    moves, match = first_legal_line(CODE)
    store.append_moves(game_id, ana, 0, moves)
    outcome = store.finish_game(game_id, ana)
    assert outcome.result["points"] == match.scores[2]  # the host's own seat
    for player, seat in ((ana, 2), (bence, 0), (chloe, 3)):
        stats = store.statistics(player).of("thirteen", ThirteenStatistics)
        places = [sum(1 for result in match.results if result.order.index(seat) == p) for p in range(4)]
        assert (stats.games, stats.rounds, stats.points, stats.won) == (
            1,
            len(match.results),
            match.scores[seat],
            int(seat in match.winners),
        ), player
        assert list(stats.places) == places
    # The others' own games still count as theirs alone.
    assert (
        store.statistics(store.create_player("Dev").player_id).of("thirteen", ThirteenStatistics).games == 0
    )
