"""The interface every computer player implements: a view in, a move out, seeded."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from parlour.copies import shallow_copy
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.views import PlayerView


class Bot(ABC):
    """A computer player. ``choose`` sees only a ``PlayerView``, never another seat's cards; the same
    seed and the same views give the same moves."""

    name: ClassVar[str]

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The computer player's random generator, made from its seed when first drawn from."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def copy(self) -> Bot:
        """Return an independent copy (its random generator, if drawn from yet, in the same state):
        the same views then give the copy and the original the same moves. Cheap for a player that
        never draws (a live table copies its four players before every move)."""
        twin = shallow_copy(self)
        if self._rng is not None:
            twin._rng = random.Random(0)  # a fixed seed: its state is replaced at once
            twin._rng.setstate(self._rng.getstate())
        return twin

    def choose(self, view: PlayerView) -> Move:
        """Return the move for the seat of ``view``, which must be to move.

        Raises:
            ValueError: it is not the view's seat's turn.
        """
        if not view.my_turn:
            raise ValueError(f"seat {view.seat} is not to move")
        plays = view.legal_plays()
        may_pass = view.may_pass
        if not plays:
            return PASS
        return self.pick(view, plays, may_pass)

    @abstractmethod
    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Choose among the legal ``plays`` (masks, never empty) or the pass when ``may_pass``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
