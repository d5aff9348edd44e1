"""Thirteen's actions for learning: one for each shape a play can have, and pass (453 in all).

A shape is a combination's kind, length and top card (the card that decides what it beats). The action
of a shape plays its top card and, under it, the lowest cards of the hand that complete the shape: for
a pair topped by 7♥, the lowest other 7; for a sequence topped by 9♦, the lowest card of each rank
below. Only those choices of the cards under the top are left out, and they change neither what the
play beats nor what may be played next, only which cards stay in the hand; keeping the higher ones is
what a good player does anyway. A shape can be played exactly when its lowest completion can (3♠ being
the lowest card, the game's first play keeps it). See decision 0052.

Actions, in order: 52 singles, 39 pairs, 26 triples, 13 quads, 220 sequences of 3-12 cards, 102
double sequences of 3-6 pairs, then pass (452).
"""

from __future__ import annotations

from typing import Final

from parlour.thirteen.combos import DOUBLE_SEQUENCE, PAIR, QUAD, SEQUENCE, SINGLE, TRIPLE, Shape, shape_of
from parlour.thirteen.order import TWO

SUITS: Final = 4


def _shapes() -> tuple[Shape, ...]:
    made: list[Shape] = []
    for kind, count in ((SINGLE, 1), (PAIR, 2), (TRIPLE, 3), (QUAD, 4)):
        for rank in range(TWO + 1):
            for suit in range(count - 1, SUITS):  # the top of n cards of a rank has n - 1 suits below it
                made.append((kind, count, 4 * rank + suit))
    for length in range(3, TWO + 1):  # sequences of 3 to 12 ranks, 3 to A (no 2)
        for rank in range(length - 1, TWO):
            for suit in range(SUITS):
                made.append((SEQUENCE, length, 4 * rank + suit))
    for pairs in range(3, 7):  # at most 6 pairs in 13 cards
        for rank in range(pairs - 1, TWO):
            for suit in range(1, SUITS):
                made.append((DOUBLE_SEQUENCE, 2 * pairs, 4 * rank + suit))
    return tuple(made)


SHAPES: Final = _shapes()
"""Every playable shape, by action number."""
PASS_ACTION: Final = len(SHAPES)
ACTIONS: Final = PASS_ACTION + 1
ACTION_OF: Final = {shape: action for action, shape in enumerate(SHAPES)}
"""The action of each shape."""


def action_of(mask: int) -> int:
    """Return the action of a play (a card mask; 0 for pass). The same plays come up move after move
    (a hand's plays stay legal for a while), so answers are kept, up to a bound.

    Raises:
        ValueError: the cards form no combination.
    """
    known = _ACTIONS_SEEN.get(mask)
    if known is not None:
        return known
    if mask == 0:
        return PASS_ACTION
    shape = shape_of(mask)
    if shape is None:
        raise ValueError(f"the cards {mask:#x} form no combination")
    if len(_ACTIONS_SEEN) >= _ACTIONS_KEPT:
        _ACTIONS_SEEN.clear()
    action = _ACTIONS_SEEN[mask] = ACTION_OF[shape]
    return action


_ACTIONS_SEEN: dict[int, int] = {}
_ACTIONS_KEPT: Final = 1 << 16


def _lowest(hand: int, rank: int, below: int, count: int) -> int:
    """Return the ``count`` lowest cards of ``rank`` in ``hand`` whose suits are below ``below``, or 0
    when there are not enough."""
    cards = (hand >> (4 * rank)) & ((1 << below) - 1)
    taken = 0
    for _ in range(count):
        if not cards:
            return 0
        low = cards & -cards
        taken |= low
        cards ^= low
    return taken << (4 * rank)


def play_of(action: int, hand: int) -> int | None:
    """Return the cards (a mask) action ``action`` plays from ``hand``: 0 for pass, None when the hand
    cannot make the shape.

    Raises:
        ValueError: no such action.
    """
    if action == PASS_ACTION:
        return 0
    if not 0 <= action < PASS_ACTION:
        raise ValueError(f"no action {action}: actions run from 0 to {PASS_ACTION}")
    kind, length, top = SHAPES[action]
    if not hand >> top & 1:
        return None
    top_rank, top_suit = divmod(top, 4)
    mask = 1 << top
    if kind in (SINGLE, PAIR, TRIPLE, QUAD):
        under = length - 1
        ranks_below = 0
    elif kind == SEQUENCE:
        under = 0
        ranks_below = length - 1
    else:
        under = 1
        ranks_below = length // 2 - 1
    per_rank = 1 if kind == SEQUENCE else 2
    if under:
        same = _lowest(hand, top_rank, top_suit, under)
        if not same:
            return None
        mask |= same
    for rank in range(top_rank - ranks_below, top_rank):
        cards = _lowest(hand, rank, SUITS, per_rank)
        if not cards:
            return None
        mask |= cards
    return mask
