"""Duplicate sets (``Rules.duplicate_deals``): a match of N deals, each played four times with the hands
rotated among the seats, every round opening as a match's first, the set over after 4N rounds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.errors import InvalidInput
from parlour.thirteen import Match, Rules
from parlour.thirteen.bots import make_bot
from parlour.thirteen.game import deal_hands
from parlour.thirteen.order import THREE_OF_SPADES_BIT
from parlour.thirteen.sets import comparison, deal_number, schedule, slot


def play_set(
    number: int, deals: int, names: tuple[str, ...] = ("greedy",) * 4
) -> tuple[Match, dict[int, list[int]]]:
    """Play a whole set with computer players; return the match and each round's hands as dealt."""
    match = Match(number, Rules(duplicate_deals=deals))
    bots = [make_bot(name, seat) for seat, name in enumerate(names)]
    dealt: dict[int, list[int]] = {}
    while not match.over:
        dealt.setdefault(match.round.number, list(match.round.hands))
        seat = match.turn
        assert seat is not None
        match.push(bots[seat].choose(match.view(seat)))
    return match, dealt


def test_rounds_go_deal_by_deal_then_rotation_by_rotation() -> None:
    rules = Rules(duplicate_deals=3)
    order = [(slot(rules, k).deal, slot(rules, k).rotation) for k in range(1, 13)]
    assert order == [(d, r) for r in range(4) for d in range(3)]
    with pytest.raises(ValueError):
        slot(rules, 13)
    with pytest.raises(ValueError):
        slot(Rules(), 1)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(1, 3))
def test_every_seat_holds_every_hand_of_every_deal_once(number: int, deals: int) -> None:
    match, dealt = play_set(number, deals)
    rules = match.rules
    assert len(match.results) == 4 * deals
    for deal in range(deals):
        hands = deal_hands(deal_number(number, deal))
        rounds = [dealt[k] for k in dealt if slot(rules, k).deal == deal]
        assert len(rounds) == 4
        for seat in range(4):
            assert sorted(held[seat] for held in rounds) == sorted(hands)
        for held in rounds:
            where = next(slot(rules, k) for k in dealt if dealt[k] is held)
            assert held == [hands[where.hand_of(seat)] for seat in range(4)]


def test_deal_one_is_the_matchs_first_deal_and_the_code_fixes_every_deal() -> None:
    assert deal_number(77, 0) == 77
    assert deal_number(77, 1) != deal_number(78, 1)


def test_every_round_of_a_set_opens_with_three_of_spades() -> None:
    match = Match(4242, Rules(duplicate_deals=2))
    bots = [make_bot("heuristic", seat) for seat in range(4)]
    while not match.over:
        if not match.round.steps:
            holder = next(seat for seat in range(4) if match.round.hands[seat] & THREE_OF_SPADES_BIT)
            assert match.turn == holder
            assert match.view(holder).must_include_three_of_spades
            assert match.rules.opens(match.round.number)
        seat = match.turn
        assert seat is not None
        match.push(bots[seat].choose(match.view(seat)))
    assert not Rules().opens(2)


def test_the_set_ends_after_its_rounds_whatever_the_points_and_ties_share_the_win() -> None:
    match, _ = play_set(11, 1, ("greedy", "random", "heuristic", "random"))
    assert len(match.results) == 4
    best = max(match.scores)
    assert match.winners == tuple(seat for seat in range(4) if match.scores[seat] == best)
    same, _ = play_set(11, 1, ("greedy",) * 4)  # the same player everywhere: every hand scores alike
    assert same.winners == (0, 1, 2, 3)


def test_the_comparison_adds_up_and_each_hand_is_judged_against_its_mean() -> None:
    match, _ = play_set(99, 2, ("heuristic", "random", "greedy", "random"))
    table = comparison(match.rules, match.results)
    assert len(table) == 8
    for seat in range(4):
        assert sum(hand.points[seat] or 0 for hand in table) == match.scores[seat]
    for hand in table:
        assert None not in hand.points
        assert sum(value or 0.0 for value in hand.versus) == pytest.approx(0.0)
    halfway = comparison(match.rules, match.results[:5])  # every deal's rotation 0, then deal 1's rotation 1
    assert sum(1 for hand in halfway for value in hand.points if value is not None) == 20
    assert all(value is None for hand in halfway for value in hand.versus)


def test_a_set_replays_from_its_record() -> None:
    match, _ = play_set(5, 1)
    again = Match.replay(match.code, list(match.record().moves), match.rules)
    assert again.scores == match.scores and again.over


def test_the_expert_plays_later_rounds_of_a_set() -> None:
    # The expert rebuilds the round from its view: it must know a set's later rounds open with 3♠ too.
    match, _ = play_set(3, 1, ("expert", "greedy", "greedy", "greedy"))
    assert match.over


def test_the_schedule_names_each_seats_hand() -> None:
    rules = Rules(duplicate_deals=2)
    assert schedule(rules, 3) == {
        "deals": 2,
        "rounds": 8,
        "deal": 1,
        "rotation": 2,
        "hands": ["B", "C", "D", "A"],
    }
    assert schedule(Rules(), 1) is None


@pytest.mark.parametrize("bad", [-1, 27, True, "2"])
def test_bad_numbers_of_deals_are_refused(bad: object) -> None:
    with pytest.raises(InvalidInput):
        Rules.from_json({"duplicate_deals": bad})
