"""Views hold only the seat's own cards; the click-to-play selection rule of the seed."""

from __future__ import annotations

import json

import pytest
from thirteen_helpers import m

from parlour.errors import InvalidInput
from parlour.thirteen import Match
from parlour.thirteen.combos import shape_of
from parlour.thirteen.order import cards_of
from parlour.thirteen.rules import Rules
from parlour.thirteen.select import Selection, judge_selection, judge_view_selection


def test_view_holds_own_hand_and_counts_only() -> None:
    match = Match(8)
    for seat in range(4):
        view = match.view(seat)
        assert view.hand_mask == match.round.hands[seat]
        assert view.hand_counts == (13, 13, 13, 13)
        text = json.dumps(view.to_json())
        for other in range(4):
            if other != seat:
                assert not any(f'"{card}"' in text for card in cards_of(match.round.hands[other]))
    with pytest.raises(InvalidInput):
        match.view(4)


def test_view_json_shape() -> None:
    match = Match(8)
    seat = match.turn
    assert seat is not None
    match.play(seat, [c for c in match.view(seat).hand if str(c) == "3S"])
    data = match.view(seat).to_json()
    assert set(data) == {
        "seat", "round", "rules", "hand", "hand_counts", "turn", "table", "passed", "finished",
        "history", "scores", "results", "must_include_three_of_spades", "winners", "legal_moves",
    }  # fmt: skip
    assert data["table"] == {
        "cards": ["3S"],
        "combo": {"kind": "single", "length": 1, "top": "3S"},
        "owner": seat,
    }
    assert data["history"] == [{"seat": seat, "move": "3S", "out": False, "cleared": False}]
    assert data["hand_counts"][seat] == 12 and data["legal_moves"] == []
    assert match.view((seat + 1) % 4).to_json()["legal_moves"][-1] == "pass"


def test_seed_examples_of_the_selection_rule() -> None:
    hand = m("6S 6C 6H 9D KH")
    # With two 5s on the table, selecting two 6s plays them.
    assert judge_selection(hand, m("6S 6C"), shape_of(m("5S 5H"))) is Selection.PLAY_NOW
    # On an empty table two of three 6s wait for the Play button; all three play at once.
    assert judge_selection(hand, m("6S 6C"), None) is Selection.WAIT
    assert judge_selection(hand, m("6S 6C 6H"), None) is Selection.PLAY_NOW


@pytest.mark.parametrize(
    ("hand", "selection", "table", "answer"),
    [
        ("6S 9D KH", "6S", None, Selection.PLAY_NOW),  # nothing extends a lone 6
        ("6S 6H 9D", "6S", None, Selection.WAIT),  # a pair could be made
        ("5C 6S 7D 8H", "5C 6S 7D", None, Selection.WAIT),  # the sequence could be longer
        ("5C 6S 7D 8H", "6S 7D 8H", None, Selection.WAIT),  # extended at the low end too
        ("5C 6S 7D 8H", "5C 6S 7D 8H", None, Selection.PLAY_NOW),
        ("5C 6S 7D 7H", "5C 6S 7D", None, Selection.PLAY_NOW),  # 7H cannot join a sequence
        ("5C 5S 6S 6D 7D 7H", "5C 6S 7D", None, Selection.WAIT),  # extends to a double sequence
        ("5C 6S 7D 8H", "5C 6S 7D", "3S 4S 5S", Selection.PLAY_NOW),  # length fixed by the table
        ("5C 6S 7D 8H", "5C 6S 7D", "3S 4S 5S 6S", Selection.NOT_PLAYABLE),
        ("6S 6C 6H", "6S 6C", "5S 5H", Selection.PLAY_NOW),
        ("6S 6C 6H", "6S 6C 6H", "5S 5H", Selection.NOT_PLAYABLE),
        ("4S 6S", "4S", "5S", Selection.NOT_PLAYABLE),
        ("4S 6S", "6S", "5S", Selection.PLAY_NOW),
        ("4S 6S", "7S", "5S", Selection.NOT_PLAYABLE),  # not in the hand
        ("4S 6S", "4S 6S", None, Selection.NOT_PLAYABLE),
        # on a single 2 a double sequence of 3 pairs waits when a 4th pair could join
        ("3S 3C 4S 4C 5S 5C 6S 6C", "3S 3C 4S 4C 5S 5C", "2H", Selection.WAIT),
        ("3S 3C 4S 4C 5S 5C 6S 6C", "3S 3C 4S 4C 5S 5C 6S 6C", "2H", Selection.PLAY_NOW),
        ("3S 3C 4S 4C 5S 5C 6S 6C", "3S 3C 4S 4C 5S 5C", "2H 2D", Selection.NOT_PLAYABLE),
        ("9S 9C 9D 9H", "9S 9C 9D 9H", "2H", Selection.PLAY_NOW),
        ("9S 9C 9D 9H", "9S 9C 9D", "2H", Selection.NOT_PLAYABLE),
    ],
)
def test_selection_rule(hand: str, selection: str, table: str | None, answer: Selection) -> None:
    shape = shape_of(m(table)) if table else None
    assert judge_selection(m(hand), m(selection), shape) is answer


def test_selection_respects_three_of_spades_and_the_turn() -> None:
    hand = m("3S 3H 4D")
    assert judge_selection(hand, m("3H"), None, Rules(), must_include=1) is Selection.NOT_PLAYABLE
    assert judge_selection(hand, m("3S"), None, Rules(), must_include=1) is Selection.WAIT
    assert judge_selection(hand, m("3S 3H"), None, Rules(), must_include=1) is Selection.PLAY_NOW
    match = Match(8)
    seat = match.turn
    assert seat is not None
    other = match.view((seat + 1) % 4)
    assert judge_view_selection(other, other.hand_mask & -other.hand_mask) is Selection.NOT_PLAYABLE
    mine = match.view(seat)
    answers = {judge_view_selection(mine, play) for play in mine.legal_plays()}
    assert answers <= {Selection.PLAY_NOW, Selection.WAIT} and Selection.PLAY_NOW in answers
