"""A TriPeaks deal: the 28 tableau cards by position, the first discard card and the stock.

Deals come from a code (``Deal.from_code``), from a number and rules (``Deal.from_number``) or from an
explicit layout (``Deal.parse``), which is how the examples of the rule documents are built in tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from parlour.cards import DECK, JOKER, Card
from parlour.deal import secret_shuffle, shuffle, shuffled_deck
from parlour.errors import InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.rules import EASY, Rules

EMPTY_DISCARD_TEXT: Final = "-"
"""Stands for the empty discard pile in ``Deal.parse`` and ``Deal.to_text``."""
SECRET_LABEL: Final = "TP2 deal"
"""Generator 2's label for a TriPeaks deal (decision 0059)."""
_FULL_DECK: Final = frozenset(DECK)
_JOKER_DECK: Final = frozenset((*DECK, JOKER))


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal: ``tableau`` (28, by position), ``discard`` (None when the pile starts
    empty) and ``stock`` (top first, drawn first).

    Raises:
        InvalidInput: the cards are not exactly the 52-card deck, or the deck and the joker.
    """

    tableau: tuple[Card, ...]
    discard: Card | None
    stock: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tableau", tuple(self.tableau))
        object.__setattr__(self, "stock", tuple(self.stock))
        if len(self.tableau) != TABLEAU_SIZE:
            raise InvalidInput(f"a deal needs {TABLEAU_SIZE} tableau cards, got {len(self.tableau)}")
        cards = [*self.tableau, *self.stock] + ([] if self.discard is None else [self.discard])
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise InvalidInput(f"the deal holds {card.pretty()} twice")
            seen.add(card)
        if seen not in (_FULL_DECK, _JOKER_DECK):
            raise InvalidInput(
                f"a deal holds the 52 cards (53 with the joker), got {len(cards)} cards; "
                f"missing: {' '.join(c.pretty() for c in sorted(_FULL_DECK - seen)) or 'none'}"
            )

    @property
    def has_joker(self) -> bool:
        """True when the joker is in the deal."""
        return JOKER in self.tableau or JOKER in self.stock or self.discard is JOKER

    @classmethod
    def from_number(cls, number: int, rules: Rules = EASY) -> Deal:
        """Return deal ``number`` under generator TP1.

        Without the joker this is ``shuffled_deck(number)``. With the joker the same generator shuffles
        53 cards: the base order with the joker appended at index 52. Either way the first 28 cards go to
        positions 0..27, the next one to the discard pile (unless it starts empty) and the rest to the
        stock, the first of them on top.

        Raises:
            ValueError: the number is outside 0 .. 26^7 - 1.
        """
        deck = shuffled_deck(number)  # also checks the range
        if rules.joker:
            deck = shuffle((*DECK, JOKER), number)
        return cls._lay_out(deck, rules)

    @classmethod
    def from_seed(cls, seed: bytes, rules: Rules = EASY) -> Deal:
        """Return the secret deal of ``seed`` under generator 2 (label ``TP2 deal``): 52 cards, or 53 with
        the joker appended to the base order, laid out as :meth:`from_number` lays them.

        Raises:
            ValueError: the seed is not 16 bytes.
        """
        cards = (*DECK, JOKER) if rules.joker else DECK
        return cls._lay_out(secret_shuffle(cards, seed, SECRET_LABEL), rules)

    @classmethod
    def _lay_out(cls, deck: list[Card], rules: Rules) -> Deal:
        tableau = tuple(deck[:TABLEAU_SIZE])
        if rules.empty_discard:
            return cls(tableau, None, tuple(deck[TABLEAU_SIZE:]))
        return cls(tableau, deck[TABLEAU_SIZE], tuple(deck[TABLEAU_SIZE + 1 :]))

    @classmethod
    def from_code(cls, code: DealCode | str) -> Deal:
        """Return the deal of a code (text is parsed first).

        Raises:
            InvalidCode: the text is not a deal code.
        """
        if isinstance(code, str):
            code = DealCode.parse(code)
        if code.is_secret:
            return cls.from_seed(code.seed, code.rules)
        return cls.from_number(code.number, code.rules)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read an explicit layout: cards separated by spaces or commas, positions 0–27, then the discard
        card (``-`` for an empty discard pile), then the stock from its top.

        Raises:
            InvalidCard: an item is not a card.
            InvalidInput: the cards are not a whole deck.
        """
        items = text.replace(",", " ").split()
        if len(items) <= TABLEAU_SIZE:
            raise InvalidInput(
                f"a layout lists the {TABLEAU_SIZE} tableau cards, the discard card (or -) and the stock; "
                f"got {len(items)} items"
            )
        tableau = tuple(Card.parse(item) for item in items[:TABLEAU_SIZE])
        discard_text = items[TABLEAU_SIZE]
        discard = None if discard_text == EMPTY_DISCARD_TEXT else Card.parse(discard_text)
        stock = tuple(Card.parse(item) for item in items[TABLEAU_SIZE + 1 :])
        return cls(tableau, discard, stock)

    def to_text(self) -> str:
        """The layout in the form ``Deal.parse`` reads (machine card notation)."""
        discard = EMPTY_DISCARD_TEXT if self.discard is None else str(self.discard)
        return " ".join([*(str(c) for c in self.tableau), discard, *(str(c) for c in self.stock)])
