"""Hypothesis properties: move generation equals brute force, cards are conserved, every generated move
is accepted, views never hold another seat's card, random games always end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.thirteen import Match
from parlour.thirteen.combos import shape_beats, shape_of
from parlour.thirteen.moves import all_plays, can_beat, legal_plays
from parlour.thirteen.order import FULL_MASK, cards_of
from parlour.thirteen.rules import Rules

hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True).map(
    lambda bits: sum(1 << b for b in bits)
)
rules = st.builds(Rules, quad_beats_pair_of_twos=st.booleans(), double_sequence_beats_quad=st.booleans())


def _subsets(mask: int) -> list[int]:
    found = []
    sub = mask
    while sub:
        found.append(sub)
        sub = (sub - 1) & mask
    return found


@settings(max_examples=150, deadline=None)
@given(hands, hands, rules, st.booleans())
def test_legal_plays_equal_brute_force(hand: int, table_cards: int, house: Rules, opening: bool) -> None:
    table = shape_of(table_cards & ~hand)
    must = 1 if opening else 0
    expected = {
        sub
        for sub in _subsets(hand)
        if (shape := shape_of(sub)) is not None and shape_beats(shape, table, house) and sub & must == must
    }
    found = legal_plays(hand, table, house, must)
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert set(all_plays(hand)) == {sub for sub in _subsets(hand) if shape_of(sub) is not None}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(0, 2**32), st.booleans())
def test_random_games_keep_every_invariant_and_end(number: int, seed: int, bomb_after_pass: bool) -> None:
    rng = random.Random(seed)
    match = Match(number, Rules(bomb_after_pass=bomb_after_pass))
    steps = 0
    while not match.over:
        steps += 1
        assert steps < 5000, "a random game must end"
        current = match.round
        played = 0
        for step in current.steps:
            assert not step.mask & played
            played |= step.mask
        held = 0
        for hand in current.hands:
            assert not hand & held
            held |= hand
        assert held | played == FULL_MASK  # 52 cards conserved
        seat = match.turn
        assert seat is not None
        views = [match.view(s) for s in range(4)]
        for view in views:
            assert view.hand_mask == current.hands[view.seat]
            others = FULL_MASK & ~current.hands[view.seat] & ~played
            text = repr(view.to_json())
            # No card another seat still holds appears anywhere in the view.
            assert not any(f"'{card}'" in text for card in _cards(others))
        moves = views[seat].legal_moves()
        assert [str(move) for move in moves] == [str(move) for move in match.legal_moves(seat)]
        assert moves, "the seat to move always has a move"
        for other in range(4):
            if other != seat:
                assert views[other].legal_moves() == []
        match.apply(seat, rng.choice(moves))  # checked: every generated move is accepted
    assert sum(match.scores) == 6 * len(match.results)


def _cards(mask: int) -> list[str]:
    return [str(card) for card in cards_of(mask)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=20, unique=True), hands, rules)
def test_can_beat_agrees_with_legal_plays(bits: list[int], table_cards: int, house: Rules) -> None:
    cards = sum(1 << bit for bit in bits)
    table = shape_of(table_cards & ~cards)
    if table is not None:
        assert can_beat(cards, table, house) is bool(legal_plays(cards, table, house))
