"""Cards as the terminal draws them, in every game: the three cells inside a card and its colours."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rich.style import Style

from parlour.cards import Card

RED: Final = Style(color="red", bgcolor="white", bold=True)
BLACK: Final = Style(color="black", bgcolor="white", bold=True)
DIM_RED: Final = Style(color="red", bgcolor="grey70")
DIM_BLACK: Final = Style(color="black", bgcolor="grey70")
BACK: Final = Style(color="white", bgcolor="blue")
FOUR_COLOUR: Final = {"♦": "blue", "♣": "green"}
"""The four-colour deck's two other colours (the player's ``deck`` preference): diamonds and clubs."""
CURSOR: Final = Style(reverse=True, bold=True)
EMPTY: Final = Style()


def card_label(card: Card, letters: Mapping[str, str] | None = None) -> str:
    """The three cells inside a card: ``K♣ ``, ``10♥``, ``🃏`` is shown as ``JK``; ``letters`` (the
    language's corner letters, ``parlour.i18n.cards.rank_letters``) turn ``K♣`` into ``R♣`` in French."""
    text = "JK" if card.is_joker else card.pretty()
    if letters and not card.is_joker:
        text = letters.get(text[:-1], text[:-1]) + text[-1]
    return f"{text:<3}"[:3]


def card_style(card: Card, free: bool, deck: str = "two_colour") -> Style:
    """Red or black on white for a free card, greyed for a card that is face up but still covered; with
    ``deck`` ``four_colour``, diamonds blue and clubs green."""
    suit = card.pretty()[-1:]
    red = suit in "♦♥"
    style = (RED if red else BLACK) if free else (DIM_RED if red else DIM_BLACK)
    if deck == "four_colour" and suit in FOUR_COLOUR:
        style = style + Style(color=FOUR_COLOUR[suit])
    return style
