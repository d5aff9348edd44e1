"""Explicit deals for tests: the seeds' worked example and deals built to follow a planned line of play."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.cards import DECK, JOKER, Card, Suit, parse_cards
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.layout import TABLEAU_SIZE

SEED_BOTTOM_ROW = "3S 5S KC 4S 2D AS KD 8H 7C 9S"
SEED_DISCARD = "AC"


def explicit_deal(
    placed: dict[int, str],
    discard: str | None,
    stock_top: Sequence[str] = (),
    stock_bottom: Sequence[str] = (),
    joker: bool = False,
) -> Deal:
    """A deal with the given cards at the given positions, the given discard card and stock ends; every
    other place is filled with the remaining cards (the 52, and the joker when asked) in deck order."""
    chosen = {p: Card.parse(text) for p, text in placed.items()}
    top = [Card.parse(text) for text in stock_top]
    bottom = [Card.parse(text) for text in stock_bottom]
    discard_card = None if discard is None else Card.parse(discard)
    used = set(chosen.values()) | set(top) | set(bottom) | ({discard_card} - {None})
    spare = iter(card for card in (*DECK, JOKER)[: 53 if joker else 52] if card not in used)
    tableau = tuple(chosen[p] if p in chosen else next(spare) for p in range(TABLEAU_SIZE))
    return Deal(tableau, discard_card, (*top, *spare, *bottom))


def seed_example_deal() -> Deal:
    """The deal of the seeds' worked example: bottom row 3♠ 5♠ K♣ 4♠ 2♦ A♠ K♦ 8♥ 7♣ 9♠ on A♣, with 7♠
    at position 13 (the card the example turns up)."""
    placed = dict(zip(range(18, 28), SEED_BOTTOM_ROW.split(), strict=True))
    placed[13] = "7S"
    return explicit_deal(placed, SEED_DISCARD)


REMOVAL_ORDER_BY_ROWS = (*range(18, 28), *range(9, 18), *range(3, 9), 0, 1, 2)
"""Every tableau position, bottom row first: each card is free when its turn comes."""


def planned_deal(line: Sequence[int | str], king_ace_linked: bool = True) -> Deal:
    """Return a deal on which ``line`` (positions to remove and ``"draw"``) is legal, every removal one rank
    above the discard top (wrapping K→A when linked, otherwise going up then down).

    The discard card, the stock cards drawn by the line and the tableau cards get ranks in order; the cards
    the line never reaches get the remaining cards.
    """
    suits_left = {rank: [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES] for rank in range(1, 14)}

    def take(preferred: list[int]) -> Card:
        rank = max(preferred, key=lambda r: len(suits_left[r]))
        return Card.of(rank, suits_left[rank].pop())

    direction = 1
    discard = take([7])
    top = discard.rank
    placed: dict[int, Card] = {}
    drawn: list[Card] = []
    for step in line:
        if step == "draw":
            card = take([r for r in range(1, 14) if r != top])
            drawn.append(card)
        else:
            if king_ace_linked:
                options = [top % 13 + 1, (top - 2) % 13 + 1]
            else:
                if not 1 <= top + direction <= 13:
                    direction = -direction
                options = [top + direction]
            card = take([r for r in options if suits_left[r]])
            placed[int(step)] = card
        top = card.rank
    return explicit_deal(
        {p: str(c) for p, c in placed.items()}, str(discard), stock_top=[str(c) for c in drawn]
    )


def cards(text: str) -> list[Card]:
    """Shorthand for ``parse_cards``."""
    return parse_cards(text)
