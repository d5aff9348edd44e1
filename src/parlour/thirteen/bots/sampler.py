"""The sampler: a plain determinized search, a baseline for measuring the Expert against a style it was
not built around.

At each choice it deals the cards it has not seen at random into the other hands (``SAMPLES`` deals,
every deal as likely as any other: no reading of how the others played), plays each of its legal moves
out to the end of the round on every deal (itself as the structure keeper, the others as the heuristic
player, as the Expert's search does without inference) and makes the move with the most round points.
It compares every legal move, up to the search core's limit: the pass, then its lowest plays. It never
sees another hand: a sampled deal is never read outside its own playouts.
"""

from __future__ import annotations

from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.search import MAX_CANDIDATES, Position, choose_search_core, evaluate
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.views import PlayerView

SAMPLES: Final = 40
"""Deals played out per choice."""


class SamplerBot(Bot):
    """Chooses by playing every legal move out on a few random deals (see the module docstring).

    ``core`` names the search core (``"c"`` or ``"python"``; None for the compiled one when built)."""

    name = "sampler"

    def __init__(self, seed: int = 0, core: str | None = None) -> None:
        super().__init__(seed)
        self.core, _ = choose_search_core(core)

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the move with the most round points over the random deals (the earlier on equal
        points: the pass, then the lowest play)."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        lowest_first = sorted(plays, key=lambda mask: (mask.bit_length(), mask.bit_count(), mask))
        moves = ([PASS] if may_pass else []) + [Move(play) for play in lowest_first]
        moves = moves[:MAX_CANDIDATES]
        if len(moves) == 1:
            return moves[0]
        seed = self.rng.getrandbits(64)
        masks = [move.mask for move in moves]
        totals = evaluate(Position.of_view(view), masks, SAMPLES, SAMPLES, seed, self.core).totals
        return moves[max(range(len(moves)), key=lambda index: (totals[index], -index))]
