"""Playing cards and their text notation.

A card is one of 52 interned ``Card`` objects (plus the joker of the TriPeaks joker variant). Its
``index`` is ``suit * 13 + rank - 1`` with suits in the order clubs, diamonds, hearts, spades and ranks
A=1 … K=13: exactly the base deck order of the TP1 deal generator.

Notation: ``Card.parse`` reads ``KC``, ``Kc``, ``K♣``, ``10C``, ``TC``, ``10♣`` (and ``JK`` for the joker);
``str(card)`` gives the machine form (``KC``, ``TC``); ``card.pretty()`` the form for people
(``K♣``, ``10♣``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final

from parlour.errors import InvalidCard


class Suit(IntEnum):
    """The four suits, in the base deck order of the TP1 generator."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The machine letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The symbol for people: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]


ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
RANKS: Final = tuple(range(1, 14))

_RANK_TEXT: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_RANK_PRETTY: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_FROM_TEXT: Final = {text: rank for rank, text in enumerate(_RANK_TEXT, start=1)} | {"10": 10}
_SUIT_FROM_TEXT: Final = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip
_JOKER_TEXT: Final = frozenset({"JK", "JOKER", "🃏", "*"})
JOKER_INDEX: Final = 52

CARD_FORMAT_HELP: Final = (
    "a card is a rank (A, 2-10, T, J, Q, K) followed by a suit (C, D, H, S or ♣, ♦, ♥, ♠), e.g. KC, 10♣, TD"
)


class Card:
    """One playing card; the 52 cards and the joker are interned, so ``is`` and ``==`` agree.

    Build cards with ``Card.parse(text)``, ``Card.from_index(i)`` or ``Card.of(rank, suit)``.
    """

    __slots__ = ("_text", "index", "rank", "suit")
    _all: ClassVar[list[Card]] = []

    index: int
    rank: int
    suit: Suit | None
    _text: str

    def __new__(cls, index: int) -> Card:
        """Return the interned card with this index (0-51, or 52 for the joker).

        Raises:
            InvalidCard: the index is out of range.
        """
        if cls._all:
            if not 0 <= index <= JOKER_INDEX:
                raise InvalidCard(f"no card has index {index!r}: indices run from 0 to 52")
            return cls._all[index]
        return super().__new__(cls)  # only while the table below is being built

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card with ``index = suit * 13 + rank - 1`` (52 is the joker)."""
        return cls(index)

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        """Return the card of this rank (1 = ace … 13 = king) and suit.

        Raises:
            InvalidCard: the rank is not 1-13.
        """
        if not 1 <= rank <= 13:
            raise InvalidCard(f"no card has rank {rank!r}: ranks run from 1 (ace) to 13 (king)")
        return cls._all[int(suit) * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``KC``, ``Kc``, ``K♣``, ``10C``, ``TC``, ``10♣`` or the joker ``JK``.

        Raises:
            InvalidCard: the text is not a card; the message quotes it and says what a card looks like.
        """
        if not isinstance(text, str):
            raise InvalidCard(f"expected a card as text, got {text!r}")
        body = text.strip().upper().replace("\ufe0f", "")
        if body in _JOKER_TEXT:
            return cls._all[JOKER_INDEX]
        if len(body) >= 2:
            rank = _RANK_FROM_TEXT.get(body[:-1])
            suit = _SUIT_FROM_TEXT.get(body[-1])
            if rank is not None and suit is not None:
                return cls._all[int(suit) * 13 + rank - 1]
        raise InvalidCard(f"{text!r} is not a card: {CARD_FORMAT_HELP}")

    @property
    def is_joker(self) -> bool:
        """True for the joker of the TriPeaks joker variant."""
        return self.index == JOKER_INDEX

    def __str__(self) -> str:
        """The machine form: ``KC``, ``TC``, ``JK`` for the joker (made once per card: every view of
        every game spells its cards)."""
        return self._text

    def pretty(self) -> str:
        """The form for people: ``K♣``, ``10♣``, ``🃏`` for the joker."""
        if self.suit is None:
            return "🃏"
        return _RANK_PRETTY[self.rank - 1] + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index


def _build() -> None:
    for index in range(JOKER_INDEX + 1):
        card = object.__new__(Card)
        card.index = index
        if index == JOKER_INDEX:
            card.rank = 0
            card.suit = None
            card._text = "JK"
        else:
            card.rank = index % 13 + 1
            card.suit = Suit(index // 13)
            card._text = _RANK_TEXT[card.rank - 1] + card.suit.letter
        Card._all.append(card)


_build()

JOKER: Final = Card(JOKER_INDEX)
DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
"""The 52 cards in the TP1 base order: clubs, diamonds, hearts, spades; A, 2, …, K within a suit."""


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas, e.g. ``"5S 5H"`` or ``"K♣,10♦"``.

    Raises:
        InvalidCard: one of the items is not a card (the message names it).
    """
    return [Card.parse(item) for item in text.replace(",", " ").split()]
