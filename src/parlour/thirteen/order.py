"""Thirteen's card order and the bitmask hands the engine computes with.

Each card has a *strength* from 0 (3♠) to 51 (2♥): ``rank_order * 4 + suit_order``, where ranks run
3 4 5 6 7 8 9 10 J Q K A 2 (rank order 0 … 12) and suits ♠ ♣ ♦ ♥ (suit order 0 … 3). A set of cards
is an ``int`` whose bit ``strength`` is set for each card held, so the four cards of one rank are the
four bits of one nibble and "higher card" is "higher bit".
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from parlour.cards import DECK, Card

RANK_COUNT: Final = 13
TWO: Final = 12
"""The rank order of the 2, the highest rank, never part of a sequence."""
FULL_MASK: Final = (1 << 52) - 1
THREE_OF_SPADES_BIT: Final = 1

_RANK_ORDER: Final = {3: 0, 4: 1, 5: 2, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7, 11: 8, 12: 9, 13: 10, 1: 11, 2: 12}
_SUIT_ORDER: Final = (1, 2, 3, 0)  # clubs, diamonds, hearts, spades → ♣=1 ♦=2 ♥=3 ♠=0


def _strength_of(card: Card) -> int:
    if card.suit is None:
        raise ValueError("the joker is not a Thirteen card")
    return _RANK_ORDER[card.rank] * 4 + _SUIT_ORDER[card.suit]


STRENGTH: Final[tuple[int, ...]] = tuple(_strength_of(card) for card in DECK)
"""``STRENGTH[card.index]``: the card's strength, 0 (3♠) … 51 (2♥)."""
BY_STRENGTH: Final[tuple[Card, ...]] = tuple(sorted(DECK, key=lambda card: STRENGTH[card.index]))
"""The 52 cards from the lowest (3♠) to the highest (2♥)."""


def strength(card: Card) -> int:
    """Return the card's strength: 0 for 3♠ … 51 for 2♥."""
    return STRENGTH[card.index]


def mask_of(cards: Iterable[Card]) -> int:
    """Return the bitmask of these cards (duplicates collapse; see ``count_distinct`` to detect them)."""
    mask = 0
    for card in cards:
        mask |= 1 << STRENGTH[card.index]
    return mask


@lru_cache(maxsize=8192)
def cards_of(mask: int) -> tuple[Card, ...]:
    """Return the cards of a bitmask from the lowest to the highest.

    Kept for the masks most recently asked for: a table's every event shows the same hands and plays
    again (the search players work on masks and never ask)."""
    result = []
    while mask:
        low = mask & -mask
        result.append(BY_STRENGTH[low.bit_length() - 1])
        mask ^= low
    return tuple(result)


def top_bit(mask: int) -> int:
    """Return the strength of the highest card of a non-empty mask."""
    return mask.bit_length() - 1


@lru_cache(maxsize=8192)
def text_of(mask: int) -> str:
    """Return the cards of a mask in machine form, lowest first: ``"5S 5H"``.

    Kept for the masks most recently asked for: every event of a table shows the round's history, the
    same plays again and again."""
    return " ".join(str(card) for card in cards_of(mask))


def pretty_of(mask: int) -> str:
    """Return the cards of a mask in the form for people, lowest first: ``"5♠ 5♥"``."""
    return " ".join(card.pretty() for card in cards_of(mask))
