"""Helpers shared by the Thirteen tests: card masks from text and hand-made rounds."""

from __future__ import annotations

from parlour.cards import parse_cards
from parlour.thirteen.order import mask_of
from parlour.thirteen.round import Round
from parlour.thirteen.rules import STANDARD, Rules


def m(text: str) -> int:
    """The strength mask of cards written like ``"5S 5H"``."""
    return mask_of(parse_cards(text))


def make_round(*hands: str, leader: int | None = 0, rules: Rules = STANDARD, opening: bool = False) -> Round:
    """A round with these four hands (any sizes)."""
    assert len(hands) == 4
    return Round(1, [m(hand) for hand in hands], leader, rules, opening)
