"""Explicit TriPeaks layouts for tests that must reach a win or a dead end by known moves.

``chain_deal()`` lays the 28 peak cards so that removing them bottom row first, left to right, then
row 3, row 2 and the tops is one unbroken run of ranks going up (Easy rules, K–A linked) from the
discard card: 28 clicks win. The last stock card fits no bottom-row card, so drawing the whole stock
at the start ends in "No more moves possible".
"""

from __future__ import annotations

from typing import Final

from parlour.cards import DECK, Card
from parlour.tripeaks.deal import Deal

REMOVAL_ORDER: Final = (*range(18, 28), *range(9, 18), *range(3, 9), *range(0, 3))
START_RANK: Final = 5


def _rank(offset: int) -> int:
    return (START_RANK - 1 + offset) % 13 + 1


def chain_deal() -> Deal:
    """Return the scripted deal (see the module docstring)."""
    pool: dict[int, list[Card]] = {rank: [c for c in DECK if c.rank == rank] for rank in range(1, 14)}
    discard = pool[START_RANK].pop(0)
    tableau: list[Card | None] = [None] * 28
    for step, position in enumerate(REMOVAL_ORDER, start=1):
        tableau[position] = pool[_rank(step)].pop(0)
    last = pool[_rank(-1)].pop()  # rank START-1: next to no bottom-row rank (START+1 … START+10)
    stock = [card for rank in range(1, 14) for card in pool[rank]] + [last]
    return Deal(tuple(c for c in tableau if c is not None), discard, tuple(stock))


def chain_moves() -> list[str]:
    """Return the winning removals of ``chain_deal()`` as card texts, in order."""
    deal = chain_deal()
    return [str(deal.tableau[p]) for p in REMOVAL_ORDER]
