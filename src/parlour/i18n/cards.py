"""Card names in every supported language, for people and screen readers ("ace of clubs")."""

from __future__ import annotations

from typing import Final

from parlour.cards import Card
from parlour.i18n import pgettext_for

_RANK_NAMES: Final = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
)  # fmt: skip
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")


def suit_name(suit: int, lang: str) -> str:
    """Return the name of a suit (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades) in ``lang``."""
    return pgettext_for(lang, "cards", "suit", _SUIT_NAMES[suit])


def card_pattern(rank: int, lang: str) -> str:
    """Return the name pattern of a rank with a ``{suit}`` placeholder: "queen of {suit}".

    Each rank has a whole phrase of its own, because languages inflect around the rank: Hindi says
    "पान का बादशाह" but "पान की बेगम".
    """
    return pgettext_for(lang, "cards", "card", f"{_RANK_NAMES[rank - 1]} of {{suit}}")


def card_name(card: Card, lang: str) -> str:
    """Return the spoken name of a card in ``lang``: "ace of clubs", "चिड़ी का इक्का", "treff ász"."""
    if card.suit is None:
        return pgettext_for(lang, "cards", "card", "joker")
    return card_pattern(card.rank, lang).format(suit=suit_name(card.suit, lang))
