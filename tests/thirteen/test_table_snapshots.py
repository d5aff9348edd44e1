"""A friends' table's snapshot (what the owner goes back to when a move cannot be saved) is a true,
independent copy: playing on after it changes nothing in it, and it plays on exactly as a deep copy
of the table would, computer players' random choices included."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.errors import InvalidInput
from parlour.games.tables import FriendsTable, Seat, TableSettings
from parlour.thirteen.definition import ThirteenDefinition

THIRTEEN = ThirteenDefinition()
LOBBY = 4  # the lobby of a Thirteen table: the seat after its four

HOST, FRIEND = 1, 2


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def dealt_table(clock: Clock) -> FriendsTable:
    settings_ = TableSettings.of(THIRTEEN.seated).changed({"speed": "instant", "strength": "strong"})
    table = FriendsTable(THIRTEEN, "t" * 16, "ABCDEF", HOST, settings_, clock=clock)
    table.act(LOBBY, {"type": "sit", "seat": 0, "_player": HOST, "_token_hash": "h0"})
    table.act(LOBBY, {"type": "sit", "seat": 1, "_player": FRIEND, "_token_hash": "h1"})
    for seat, strength in ((2, "random"), (3, "greedy")):  # a random player draws from its generator
        table.act(0, {"type": "add_bot", "seat": seat, "strength": strength, "_player": HOST})
    table.act(0, {"type": "start", "_player": HOST})
    return table


def step(table: FriendsTable, clock: Clock, choice: int) -> None:
    """One thing that happens at a table: a person's move, a computer player's, a page leaving or
    coming back (``choice`` picks which, and which move)."""
    if table.finished:
        return
    if choice % 7 == 6:  # the friend's page closes or opens again
        table.set_connected({0} if 1 in table.connected else {0, 1})
        return
    delay = table.next_auto()
    if delay is not None and choice % 2:
        clock.now += delay
        table.auto()
        return
    for seat, player in ((0, HOST), (1, FRIEND)):
        view = table.view(seat).to_json()
        if view.get("between_rounds"):
            if not view["tables"]["seats"][seat]["ready"]:
                table.act(seat, {"type": "continue", "_player": player})
                return
            continue
        moves = table.legal(seat)
        if moves and table.match is not None and not table.match.played_by_computer(seat):
            move = moves[choice % len(moves)]
            action: dict[str, Any] = (
                {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}
            )
            table.act(seat, {**action, "_player": player})
            return
    if delay is not None:
        clock.now += delay
        table.auto()


def views(table: FriendsTable) -> list[Any]:
    return [table.view(seat) for seat in (0, 1, LOBBY)]


@settings(max_examples=40, deadline=None)
@given(
    before=st.lists(st.integers(0, 1000), max_size=60),
    after=st.lists(st.integers(0, 1000), min_size=1, max_size=60),
)
def test_a_snapshot_is_untouched_by_play_after_it_and_plays_on_as_a_deep_copy(
    before: list[int], after: list[int]
) -> None:
    clock = Clock()
    table = dealt_table(clock)
    for choice in before:
        step(table, clock, choice)
    saved_at = clock.now
    snapshot, deep = table.snapshot(), copy.deepcopy(table)
    deep.clock = clock  # the deep copy copied the test's clock too; both copies keep the one clock
    for choice in after:
        step(table, clock, choice)
    clock.now = saved_at
    assert views(snapshot) == views(deep)
    assert snapshot.record() == deep.record()
    for choice in after:  # the copies go the same way, computer players' choices and all
        step(snapshot, clock, choice)
        step(deep, clock, choice)
        assert views(snapshot) == views(deep)
    assert snapshot.moves_played == deep.moves_played


@settings(max_examples=40, deadline=None)
@given(choices=st.lists(st.integers(0, 1000), max_size=120), lobby_only=st.booleans())
def test_the_views_made_together_are_each_seats_own_view(choices: list[int], lobby_only: bool) -> None:
    """The owner makes every seat's view at once (the public parts once): each must be exactly the
    seat's own view, before the deal, during the match and between rounds."""
    clock = Clock()
    table = FriendsTable(THIRTEEN, "t" * 16, "ABCDEF", HOST, clock=clock)
    table.act(LOBBY, {"type": "sit", "seat": 1, "_player": HOST, "_token_hash": "h0"})
    assert table.views(table.seats) == {seat: table.view(seat) for seat in table.seats}
    table = dealt_table(clock)
    for choice in choices:
        step(table, clock, choice)
        seats = [LOBBY] if lobby_only else table.seats
        assert table.views(seats) == {seat: table.view(seat) for seat in seats}
        if table.match is not None:
            people = table.match.seats
            assert table.match.views(people) == {seat: table.match.view(seat) for seat in people}


def test_a_record_written_when_strong_was_the_heuristic_player_is_read_with_todays_strong() -> None:
    settings_ = TableSettings.from_json(THIRTEEN.seated, {"speed": "fast", "strength": "heuristic"})
    assert settings_.strength == "strong" and settings_.speed == "fast"
    seat = Seat.from_record({"kind": "bot", "strength": "heuristic"}, THIRTEEN.seated)
    assert seat.kind == "bot" and seat.strength == "strong"
    assert Seat.from_record({"kind": "bot", "strength": "clever"}, THIRTEEN.seated).strength is None
    # A page may not choose the former name: only records are read with it.
    with pytest.raises(InvalidInput, match="strength") as refused:
        TableSettings.of(THIRTEEN.seated).changed({"strength": "heuristic"})
    assert refused.value.code == "bad_option"
