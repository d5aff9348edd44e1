"""What the TriPeaks player may see: the frozen :class:`PlayerView` (take a new one after each move).

A view holds no face-down card and no stock order, so nothing built from it (the page, the spoken
description, a fair hint's input) can reveal them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.cards import Card
from parlour.tripeaks.rules import Rules


@dataclass(frozen=True, slots=True)
class Slot:
    """One tableau position as seen: its ``card`` (None while face down), ``face_up``, ``removed``."""

    card: Card | None
    face_up: bool
    removed: bool

    def to_json(self) -> dict[str, Any]:
        """Return ``{"card": "KC" or null, "face_up": …, "removed": …}``."""
        return {
            "card": None if self.card is None else str(self.card),
            "face_up": self.face_up,
            "removed": self.removed,
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The player's view of a TriPeaks game.

    Attributes:
        code / deal_number: the deal code and its number (None for an explicit layout).
        rules: the rules in force.
        tableau: the 28 positions (``parlour.tripeaks.layout`` numbering).
        discard: the discard pile, bottom first; stock: how many cards the draw pile holds.
        score, moves, status (``playing``, ``won``, ``stuck``), peaks_cleared.
        free: the positions of the free cards (face up and uncovered), whether or not they fit.
        can_draw: a draw is allowed now; can_undo: undo can take a move back.
    """

    code: str | None
    rules: Rules
    deal_number: int | None
    tableau: tuple[Slot, ...]
    discard: tuple[Card, ...]
    stock: int
    score: int
    moves: int
    status: str
    peaks_cleared: tuple[bool, bool, bool]
    free: tuple[int, ...]
    can_draw: bool
    can_undo: bool

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON: the fields of ``Game.to_json()`` (without ``rejected``) plus
        ``free``, ``can_draw`` and ``can_undo``."""
        return {
            "code": self.code,
            "rules": self.rules.name,
            "variants": list(self.rules.variants),
            "deal_number": self.deal_number,
            "tableau": [slot.to_json() for slot in self.tableau],
            "discard": [str(card) for card in self.discard],
            "stock": self.stock,
            "score": self.score,
            "moves": self.moves,
            "status": self.status,
            "peaks_cleared": list(self.peaks_cleared),
            "free": list(self.free),
            "can_draw": self.can_draw,
            "can_undo": self.can_undo,
        }
