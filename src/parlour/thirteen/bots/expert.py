"""The expert: a search player that never sees another hand.

At each choice with more than one sensible move it asks the search (:mod:`parlour.thirteen.bots.search`)
what each candidate is worth: the cards it has not seen are dealt at random into the other hands, each
as large as the table shows it; each other seat gets the model of a player (heuristic, keeper, greedy,
Strong or eager keeper) that best explains its moves this round, and the deals those models explain
best are kept; and every candidate is played out on each kept deal, itself on as the Strong player
plays (``strong``; the keeper with the pure-Python twin), the others as their models do. The move
with the most round points over the deals is played (3, 2, 1, 0 for the places); every candidate is
played out on the same deals (common random numbers), so the comparison between them is sharper than
each average. The choice depends only on the view and the player's seed.

Candidates are few, to spend the time on deals rather than on moves nobody would make: the Strong
player's move, the keeper's, the heuristic's, the pass when it is allowed, and the lowest legal play of
each unit the keeper's split of the hand holds. A choice with one candidate is made at once.
"""

from __future__ import annotations

from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import HeuristicBot, best_split
from parlour.thirteen.bots.keeper import KeeperBot
from parlour.thirteen.bots.search import Position, choose_search_core, evaluate
from parlour.thirteen.bots.strong import StrongBot
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.views import PlayerView

SEARCH_CARDS: Final = {"c": 60_000, "python": 3_200}
"""The work of one choice, in cards still to be played summed over its playouts, by core: a choice
early in a round (long playouts, the most candidates) gets fewer deals than one near its end, so that
the slowest choices stay within a few hundred milliseconds. The pure-Python twin is about 90 times
slower than the compiled core, so it gets a smaller budget (and so plays less well)."""
MIN_SAMPLES: Final = {"c": 64, "python": 8}
MAX_SAMPLES: Final = {"c": 400, "python": 32}
"""Deals played out per choice, at least and at most, by core (every candidate is played out on each)."""
DRAWS_PER_SAMPLE: Final = {"c": 4, "python": 1}
"""Deals drawn for each deal kept: the likeliest quarter is kept (the twin keeps every deal it draws)."""
MAX_CANDIDATES: Final = 5
"""The most moves compared at one choice."""
OWN_PLAYOUTS: Final = {"c": "strong", "python": "keeper"}
"""How the expert plays itself in its playouts, by core: as the Strong player (decision 0055), which
keeps its structure and knows when to break it, rather than the keeper, whose playouts undervalue a
pass. The twin keeps the keeper: in pure Python the Strong player would make its decisions, already
the slowest, about a third slower again."""


class ExpertBot(Bot):
    """Chooses by playing sampled deals out (see the module docstring).

    ``core`` names the search core (``"c"`` or ``"python"``; None for the compiled one when built)."""

    name = "expert"

    def __init__(self, seed: int = 0, core: str | None = None) -> None:
        super().__init__(seed)
        self.core, _ = choose_search_core(core)
        self._keeper = KeeperBot(seed)
        self._strong = StrongBot(seed)
        self._heuristic = HeuristicBot(seed)

    def candidates(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> list[Move]:
        """Return the moves compared at this choice, the Strong player's first (it wins ties)."""
        found = [
            self._strong.pick(view, plays, may_pass),
            self._keeper.pick(view, plays, may_pass),
            self._heuristic.pick(view, plays, may_pass),
        ]
        if may_pass:
            found.append(PASS)
        legal = set(plays)
        found.extend(Move(unit) for unit in best_split(view.hand_mask) if unit in legal)
        return list(dict.fromkeys(found))[:MAX_CANDIDATES]  # each move once, in the order found

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the move with the most round points over the sampled deals."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        moves = self.candidates(view, plays, may_pass)
        if len(moves) == 1:
            return moves[0]
        samples = self.samples(view, len(moves), self.core)
        draws = samples * DRAWS_PER_SAMPLE[self.core]
        seed = self.rng.getrandbits(64)
        position = Position.of_view(view)
        masks = [move.mask for move in moves]
        totals = evaluate(
            position, masks, samples, draws, seed, self.core, own=OWN_PLAYOUTS[self.core]
        ).totals
        best = max(range(len(moves)), key=lambda index: (totals[index], -index))
        return moves[best]

    @staticmethod
    def samples(view: PlayerView, candidates: int, core: str = "c") -> int:
        """Return how many deals to play out for a choice among ``candidates`` moves with this core (see
        :data:`SEARCH_CARDS`): it depends only on the view, so the same view costs the same."""
        cards = sum(view.hand_counts)
        return max(MIN_SAMPLES[core], min(MAX_SAMPLES[core], SEARCH_CARDS[core] // (candidates * cards)))
