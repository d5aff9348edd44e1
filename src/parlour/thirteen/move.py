"""A move in Thirteen: a play of some cards, or a pass; its text form is ``"5S 5H"`` or ``"pass"``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from parlour.cards import Card, parse_cards
from parlour.errors import InvalidInput
from parlour.thirteen.order import cards_of, mask_of, pretty_of, text_of

PASS_WORDS: Final = frozenset({"pass", "p", "-"})


@dataclass(frozen=True, slots=True)
class Move:
    """A play (``mask`` ≠ 0: the cards, as a strength bitmask) or a pass (``mask`` = 0)."""

    mask: int

    @classmethod
    def pass_(cls) -> Move:
        """Return the pass."""
        return PASS

    @classmethod
    def play(cls, cards: Iterable[Card]) -> Move:
        """Return the play of these cards.

        Raises:
            InvalidInput: no card, or a card named twice (code ``empty_play`` / ``duplicate_card``).
        """
        cards = list(cards)
        if not cards:
            raise InvalidInput("a play needs at least one card", code="empty_play")
        seen: set[Card] = set()
        for card in cards:
            if card.is_joker:
                raise InvalidInput("the joker is not a Thirteen card", code="invalid_card")
            if card in seen:
                raise InvalidInput(f"{card} is named twice", code="duplicate_card")
            seen.add(card)
        return cls(mask_of(cards))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"pass"`` or cards such as ``"5S 5H"`` / ``"5♠,5♥"``.

        Raises:
            InvalidCard: an item is not a card (the message names it).
            InvalidInput: nothing to read, or a card named twice.
        """
        if text.strip().lower() in PASS_WORDS:
            return PASS
        return cls.play(parse_cards(text))

    @property
    def is_pass(self) -> bool:
        """True for the pass."""
        return self.mask == 0

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played, lowest first (empty for a pass)."""
        return cards_of(self.mask)

    def __str__(self) -> str:
        return "pass" if self.mask == 0 else text_of(self.mask)

    def pretty(self) -> str:
        """The form for people: ``"5♠ 5♥"`` or ``"pass"``."""
        return "pass" if self.mask == 0 else pretty_of(self.mask)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


PASS: Final = Move(0)
