"""Combinations: classify a set of cards and decide whether one combination beats another.

A combination is a single, pair, triple, four of a kind (``quad``), sequence (3 or more consecutive
ranks, any suits, no 2) or double sequence (3 or more consecutive pairs, no 2). Its ``length`` is its
number of cards (a double sequence of 3 pairs has length 6) and its ``top`` is its highest card.
A play beats the table when it has the same kind and length and a higher top card (rank, then suit
♠ < ♣ < ♦ < ♥), or when it is a bomb on 2s: a quad or a double sequence of 3+ pairs on a single 2, a
double sequence of 4+ pairs on a pair of 2s, of 5+ pairs on three 2s (house rules add more).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from parlour.cards import Card
from parlour.thirteen.order import BY_STRENGTH, TWO, mask_of, top_bit
from parlour.thirteen.rules import STANDARD, Rules

SINGLE: Final = 0
PAIR: Final = 1
TRIPLE: Final = 2
QUAD: Final = 3
SEQUENCE: Final = 4
DOUBLE_SEQUENCE: Final = 5
KIND_NAMES: Final = ("single", "pair", "triple", "quad", "sequence", "double_sequence")
"""The kind codes, indexed by the kind numbers above; the names used in JSON and in ``Combo.kind``."""
_SAME_RANK_KIND: Final = (-1, SINGLE, PAIR, TRIPLE, QUAD)

Shape = tuple[int, int, int]
"""A fast combination: (kind number, length in cards, strength of the top card)."""


def shape_of(mask: int) -> Shape | None:
    """Return the (kind, length, top strength) of a card mask, or None when it is no combination."""
    if not mask:
        return None
    count = mask.bit_count()
    top = mask.bit_length() - 1
    low_rank = ((mask & -mask).bit_length() - 1) >> 2
    high_rank = top >> 2
    if low_rank == high_rank:
        return (_SAME_RANK_KIND[count], count, top) if count <= 4 else None
    if high_rank == TWO or count < 3:
        return None
    span = high_rank - low_rank + 1
    per_rank = count // span
    if per_rank * span != count or per_rank > 2 or span < 3:
        return None
    for rank in range(low_rank, high_rank + 1):
        if ((mask >> (4 * rank)) & 15).bit_count() != per_rank:
            return None
    return (SEQUENCE if per_rank == 1 else DOUBLE_SEQUENCE), count, top


def shape_beats(play: Shape, table: Shape | None, rules: Rules = STANDARD) -> bool:
    """Return True when a combination of shape ``play`` may be played on ``table`` (None = empty table)."""
    if table is None:
        return True
    kind, length, top = play
    table_kind, table_length, table_top = table
    if kind == table_kind and length == table_length:
        return top > table_top
    if table_top >> 2 == TWO and table_kind in (SINGLE, PAIR, TRIPLE):
        # Bombs on 2s: the number of pairs a double sequence needs grows with the number of 2s.
        if kind == DOUBLE_SEQUENCE and length // 2 >= table_length + 2:
            return True
        if kind == QUAD:
            return table_kind == SINGLE or (table_kind == PAIR and rules.quad_beats_pair_of_twos)
        return False
    return rules.double_sequence_beats_quad and table_kind == QUAD and kind == DOUBLE_SEQUENCE and length >= 8


def is_bomb(mask: int) -> bool:
    """Return True for a four of a kind or a double sequence: the plays that may bomb 2s."""
    shape = shape_of(mask)
    return shape is not None and shape[0] in (QUAD, DOUBLE_SEQUENCE)


@dataclass(frozen=True, slots=True)
class Combo:
    """A classified combination: ``kind`` (a name of ``KIND_NAMES``), ``length`` in cards, ``top`` card."""

    kind: str
    length: int
    top: Card

    @property
    def shape(self) -> Shape:
        """The fast (kind number, length, top strength) form."""
        return KIND_NAMES.index(self.kind), self.length, top_bit(mask_of([self.top]))

    @classmethod
    def from_shape(cls, shape: Shape) -> Combo:
        """Return the combination of a fast shape."""
        kind, length, top = shape
        return cls(KIND_NAMES[kind], length, BY_STRENGTH[top])

    def to_json(self) -> dict[str, object]:
        """Return ``{"kind": …, "length": …, "top": "5H"}``."""
        return {"kind": self.kind, "length": self.length, "top": str(self.top)}


def classify(cards: Iterable[Card]) -> Combo | None:
    """Return the combination these cards form, or None when they form none (or repeat a card)."""
    cards = list(cards)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        return None
    shape = shape_of(mask)
    return None if shape is None else Combo.from_shape(shape)


def beats(play: Combo, table: Combo | None, rules: Rules = STANDARD) -> bool:
    """Return True when ``play`` may be played on ``table`` (None = an empty table: anything goes)."""
    return shape_beats(play.shape, None if table is None else table.shape, rules)
