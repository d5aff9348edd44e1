"""Helpers shared by the Thirteen tests: card masks from text and hand-made rounds."""

from __future__ import annotations

from collections.abc import Callable

from parlour.cards import parse_cards
from parlour.thirteen.combos import shape_of
from parlour.thirteen.game import Match
from parlour.thirteen.order import mask_of
from parlour.thirteen.round import Round, Step
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.views import PlayerView


def m(text: str) -> int:
    """The strength mask of cards written like ``"5S 5H"``."""
    return mask_of(parse_cards(text))


def make_round(*hands: str, leader: int | None = 0, rules: Rules = STANDARD, opening: bool = False) -> Round:
    """A round with these four hands (any sizes)."""
    assert len(hands) == 4
    return Round(1, [m(hand) for hand in hands], leader, rules, opening)


def make_view(
    hand: str,
    table: str = "",
    counts: tuple[int, ...] = (13, 13, 13, 13),
    may_be_passed: bool = False,
    played: str = "",
) -> PlayerView:
    """A view for seat 0, to move, holding ``hand`` with ``table`` on the table (played by seat 3) after
    seat 1 played the cards ``played`` earlier in the round."""
    table_mask = m(table) if table else 0
    hand_mask = m(hand)
    return PlayerView(
        seat=0,
        round=2,
        rules=STANDARD,
        hand_mask=hand_mask,
        hand_counts=(hand_mask.bit_count(), *counts[1:]),
        turn=0,
        table_mask=table_mask,
        table_shape=shape_of(table_mask) if table else None,
        table_owner=3 if table else None,
        passed=(may_be_passed, False, False, False),
        finished=(),
        history=(Step(1, m(played)),) if played else (),
        scores=(0, 0, 0, 0),
        results=(),
        must_include_three_of_spades=False,
        winners=(),
    )


def play_on(match: Match, done: Callable[[], bool], pick: int = 0) -> None:
    """Make the ``pick``-th legal move of the seat to move until ``done()``."""
    while not done():
        seat = match.turn
        assert seat is not None
        match.push(match.legal_moves(seat)[pick])
