"""Public tables Play now seats strangers at (issue 50, decision 0062): the table deals by itself, a
claim of a computer-held seat is honoured at the next round and never during one, a person who leaves
gives the seat back to a computer player, and a rated table rates each round with leavers placed as
they stood."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.errors import IllegalMove, InvalidInput
from parlour.games.tables import GATHERING, OVER, PLAYING, Claim, FriendsTable, Seat, TableSettings
from parlour.thirteen.definition import ThirteenDefinition

THIRTEEN = ThirteenDefinition()
GAME = THIRTEEN.seated
assert GAME is not None
LOBBY = 4
FIRST, SECOND, THIRD = 11, 12, 13


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def quick_table(clock: Clock, *, rated: bool = False, target: int = 10) -> FriendsTable:
    """A public table as Play now makes it: FIRST at seat 0, computer players at the others."""
    settings_ = TableSettings.for_quick_play(
        GAME, GAME.rules({"target_points": target}), "greedy", rated=rated
    )
    seats = [Seat("person", "Ann", FIRST), *(Seat("bot", "", None, None, "greedy") for _ in range(3))]
    return FriendsTable(THIRTEEN, "q" * 16, "QQQQQQ", FIRST, settings_, seats, clock=clock)


def run_until(table: FriendsTable, clock: Clock, done: Any, limit: int = 5000) -> None:
    """Let time pass (the people's turn timers run out, so the computer plays for them) until
    ``done(table)``."""
    for _ in range(limit):
        if done(table):
            return
        delay = table.next_auto()
        assert delay is not None, "the table waits for nothing"
        clock.now += delay + 0.01
        table.auto()
    raise AssertionError("the table never got there")


def between_rounds(table: FriendsTable) -> bool:
    return table.match is not None and table.match.between_rounds


def test_a_quick_table_deals_by_itself_once_someone_is_there() -> None:
    clock = Clock()
    table = quick_table(clock)
    assert table.phase == GATHERING
    assert table.next_auto() is None  # nobody connected: nothing happens
    table.set_connected({0})
    assert table.next_auto() == 0
    change = table.auto()
    assert change is not None and change.name == "started"
    assert table.phase == PLAYING and table.pending is not None


def test_a_watcher_keeps_a_public_table_playing() -> None:
    clock = Clock()
    table = quick_table(clock)
    table.set_connected({LOBBY})
    assert table.next_auto() == 0


def test_a_claim_waits_for_the_next_round() -> None:
    clock = Clock()
    table = quick_table(clock)
    table.set_connected({0})
    table.auto()
    assert table.wants_claims() is False  # a round is being played
    table.offer_claims([Claim(SECOND, 2, "Bình")])
    clock.now += 1
    table.auto()  # a move: the claim is not honoured during the round
    assert table.seating[2].kind == "bot"
    run_until(table, clock, between_rounds)
    assert table.wants_claims() is True
    table.offer_claims([Claim(SECOND, 2, "Bình")])
    run_until(table, clock, lambda t: not between_rounds(t))
    assert table.seating[2] == Seat("person", "Bình", SECOND, None)
    assert table.record().honoured == (SECOND,)
    assert 2 in table.seats and table.match is not None and 2 in table.match.people
    assert "hand" in table.view(2).to_json()
    table.saved()
    assert table.record().honoured == ()


def test_a_claim_of_a_seat_that_is_no_longer_a_computers_is_released() -> None:
    clock = Clock()
    table = quick_table(clock)
    table.set_connected({0})
    table.offer_claims([Claim(SECOND, 0, "Bình")])  # seat 0 is a person's
    table.auto()
    assert table.seating[0].player_id == FIRST
    assert table.record().released == (SECOND,)


def test_a_person_who_leaves_gives_the_seat_back_at_the_next_round() -> None:
    clock = Clock()
    table = quick_table(clock)
    table.set_connected({0})
    table.auto()
    change = table.act(0, {"type": "leave", "_player": FIRST})
    assert change.name == "left"
    assert table.match is not None and 0 in table.match.absent  # the computer plays on for them now
    assert table.seating[0].kind == "person"
    table.set_connected({LOBBY})  # their page watches on
    run_until(table, clock, between_rounds)
    table.offer_claims([])
    run_until(table, clock, lambda t: not between_rounds(t))
    assert table.seating[0].kind == "bot" and table.record().released == (FIRST,)


def test_the_site_seats_and_deals_at_a_public_table() -> None:
    clock = Clock()
    table = quick_table(clock)
    for action in (
        {"type": "sit", "seat": 1, "_token_hash": "x"},
        {"type": "add_bot", "seat": 1},
        {"type": "start"},
        {"type": "settings", "settings": {"turn_seconds": 0}},
        {"type": "swap", "a": 0, "b": 1},
    ):
        with pytest.raises(IllegalMove) as refused:
            table.act(0, {**action, "_player": FIRST})
        assert refused.value.code == "quick_table"


def test_a_page_cannot_make_its_table_public() -> None:
    with pytest.raises(InvalidInput):
        TableSettings.from_json(GAME, {"quick": True})
    assert TableSettings.from_json(GAME, {"rated": True}).rated  # a friends' table may be rated
    kept = TableSettings.for_quick_play(GAME, GAME.rules(None), "strong", rated=True)
    again = TableSettings.from_record(GAME, kept.to_json())
    assert again.quick and again.rated and again.turn_seconds == 30


def test_a_leaver_is_placed_below_every_seat_still_playing() -> None:
    clock = Clock()
    table = quick_table(clock, rated=True)
    table.set_connected({0})
    table.auto()
    table.act(0, {"type": "leave", "_player": FIRST})  # before anyone is out
    table.set_connected({LOBBY})
    run_until(table, clock, between_rounds)
    (rated,) = table.rated_rounds
    assert rated.round == 0
    assert rated.order[-1] == (FIRST, None)
    assert [entry[1] for entry in rated.order[:-1]] == ["greedy"] * 3


def test_a_round_played_for_an_absent_person_does_not_count_for_them() -> None:
    clock = Clock()
    table = quick_table(clock, rated=True)
    table.set_connected({0})
    table.auto()
    table.act(0, {"type": "leave", "_player": FIRST})
    table.set_connected({LOBBY})
    run_until(table, clock, between_rounds)
    table.rated_rounds.clear()
    table.offer_claims([])
    run_until(table, clock, lambda t: not between_rounds(t))
    run_until(table, clock, lambda t: between_rounds(t) or t.phase == OVER)
    (rated,) = table.rated_rounds
    assert all(player is None for player, _ in rated.order)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([SECOND, THIRD, 14, 15])), max_size=6))
def test_claims_never_seat_a_person_twice_or_over_fill(claims: list[tuple[int, int]]) -> None:
    clock = Clock()
    table = quick_table(clock)
    table.set_connected({0})
    table.offer_claims([Claim(player, seat, f"P{player}") for seat, player in claims])
    table.auto()
    people = [seat.player_id for seat in table.seating if seat.kind == "person"]
    assert len(people) == len(set(people)) and len(table.seating) == 4
    assert set(table.record().honoured) | set(table.record().released) >= {p for _, p in claims} - {FIRST}


def friends_table(rated: bool) -> FriendsTable:
    settings_ = TableSettings.from_json(GAME, {"rated": True} if rated else None)
    table = FriendsTable(THIRTEEN, "f" * 16, "FFFFFF", FIRST, settings_, clock=Clock())
    table.act(LOBBY, {"type": "sit", "seat": 0, "_player": FIRST, "_token_hash": "h0", "agree_rated": True})
    return table


def test_everyone_at_a_rated_friends_table_agreed_on_sitting_down() -> None:
    table = friends_table(rated=True)
    sit = {"type": "sit", "seat": 1, "_player": SECOND, "_token_hash": "h1", "name": "Bình"}
    with pytest.raises(IllegalMove) as refused:
        table.act(LOBBY, sit)
    assert refused.value.code == "rated_needs_agreement"
    table.act(LOBBY, {**sit, "agree_rated": True})
    assert table.seating[1].player_id == SECOND


def test_a_friends_table_turns_rated_only_before_friends_sit() -> None:
    table = friends_table(rated=False)
    table.act(LOBBY, {"type": "sit", "seat": 1, "_player": SECOND, "_token_hash": "h1", "name": "Bình"})
    with pytest.raises(IllegalMove) as refused:
        table.act(0, {"type": "settings", "settings": {"rated": True}, "_player": FIRST})
    assert refused.value.code == "rated_needs_agreement"
    alone = friends_table(rated=False)
    alone.act(0, {"type": "settings", "settings": {"rated": True}, "_player": FIRST})
    assert alone.settings.rated
