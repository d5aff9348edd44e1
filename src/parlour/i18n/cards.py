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


FACE_LETTERS: Final = ("A", "J", "Q", "K")
"""The ranks written with a letter on a card's corner; each language may use its own (French R, D, V)."""


def rank_letters(lang: str) -> dict[str, str]:
    """Return the letters a card's corner shows for the ace and the court cards in ``lang``, by the
    engine's rank letter: ``{"A": "A", "J": "V", "Q": "D", "K": "R"}`` in French."""
    return {letter: pgettext_for(lang, "cards", "rank letter", letter) for letter in FACE_LETTERS}


def card_pattern(rank: int, lang: str) -> str:
    """Return the name pattern of a rank with a ``{suit}`` placeholder: "queen of {suit}".

    Each rank has a whole phrase of its own, because languages inflect around the rank: Hindi says
    "पान का बादशाह" but "पान की बेगम".
    """
    return pgettext_for(lang, "cards", "card", f"{_RANK_NAMES[rank - 1]} of {{suit}}")


def card_name(card: Card, lang: str, *, definite: bool = False) -> str:
    """Return the spoken name of a card in ``lang``: "ace of clubs", "चिड़ी का इक्का", "treff ász".

    With ``definite`` the name carries the language's definite article, as a sentence names the card:
    "the ace of clubs", "l’as de trèfle", "le 4 de trèfle", "a treff ász" (Hindi has no articles).
    """
    context = "card with article" if definite else "card"
    prefix = "the " if definite else ""
    if card.suit is None:
        return pgettext_for(lang, "cards", context, f"{prefix}joker")
    pattern = pgettext_for(lang, "cards", context, f"{prefix}{_RANK_NAMES[card.rank - 1]} of {{suit}}")
    return pattern.format(suit=suit_name(card.suit, lang))


def card_text(card: Card, lang: str) -> str:
    """Return a card as a player of ``lang`` reads it on a card's corner: its rank with the language's
    letters and its suit's symbol (``K♣`` in English, ``R♣`` in French and Hungarian, ``10♥``)."""
    if card.suit is None:
        return card.pretty()
    engine = str(card)[0]
    rank = (
        rank_letters(lang).get(engine, card.pretty()[:-1]) if engine in FACE_LETTERS else card.pretty()[:-1]
    )
    return rank + card.suit.symbol
