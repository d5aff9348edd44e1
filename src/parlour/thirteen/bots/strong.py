"""The Strong player: keeps its structure as a good player does, and knows when to break it.

It splits its hand as the heuristic player values it (``best_split``: sequences, pairs, triples and
bombs kept together, the cheapest split in turns) and reads the round from what it has seen (every card
neither in its hand nor played yet may be with the others). In order:

1. **Go out** when the whole hand is one play.
2. **Finish in a chain**: a play nobody can answer (no unseen cards beat it), after which all but one
   unit of the hand are unanswerable too, goes out whatever the others hold; the longest such play.
3. **Lead** a unit of the split: the lowest one that is neither a 2, a bomb, nor unanswerable (those
   win the lead back later). When an opponent holds one or two cards, it leads no combination of that
   many cards (no single against a last card); if only those are left against a last card, the highest.
4. **Follow** with the lowest unit that fits and is no 2 or bomb; else with a 2 or a bomb of the split
   when an opponent holds three cards or fewer, the table holds a 2 or a bomb, or the rest of the hand
   would then go out within two turns; else it breaks a unit, with the play that leaves the cheapest
   hand, when that leaves the hand no costlier than before or an opponent holds two cards or fewer;
   else it passes.

Against three ``keeper`` players (structure-keeping greedy play) and three heuristic players it takes
clearly more than its share of first places (docs/results.md). It never looks ahead; the Expert's search
does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import (
    best_split,
    fewest_cards_of_others,
    finishing_chain,
    hand_cost,
    unanswerable_in,
)
from parlour.thirteen.bots.keeper import by_structure, precious
from parlour.thirteen.bots.simple import lowest_play
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.views import PlayerView

DANGER: Final = 2
"""An opponent with this many cards or fewer may go out on the next lead: the player contests."""
SPEND_DANGER: Final = 3
"""A 2 or a bomb is spent at once when an opponent holds this many cards or fewer."""
SPEND_WITHIN: Final = 2.0
"""Or when the rest of the hand would go out within this many turns (``hand_cost``)."""


class StrongBot(Bot):
    """The ladder's Strong player (see the module docstring)."""

    name = "strong"

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the Strong player's move."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        unanswerable = unanswerable_in(view)
        chain = finishing_chain(hand, plays, unanswerable)
        if chain is not None:
            return Move(chain)
        danger = fewest_cards_of_others(view)
        if view.table_shape is None:
            units = set(best_split(hand))
            return Move(
                self._lead([play for play in plays if play in units] or list(plays), danger, unanswerable)
            )
        ordinary, kept, special = by_structure(hand, plays)
        if kept:
            return Move(lowest_play(kept))
        if special:
            spend = lowest_play(special)
            # A 2 or a bomb wins the lead back once: worth it near the end, or to stop someone.
            if (
                danger <= SPEND_DANGER
                or precious(view.table_mask)
                or hand_cost(hand & ~spend) <= SPEND_WITHIN
            ):
                return Move(spend)
        if ordinary:
            # Break a unit with the play that leaves the cheapest hand (the lowest of equals).
            best = min(ordinary, key=lambda play: (hand_cost(hand & ~play), play.bit_length()))
            if not may_pass or danger <= DANGER or hand_cost(hand & ~best) <= hand_cost(hand):
                return Move(best)
        if may_pass:
            return PASS
        return Move(lowest_play(plays))

    @staticmethod
    def _lead(candidates: list[int], danger: int, unanswerable: Callable[[int], bool]) -> int:
        """Return the lead among ``candidates`` (step 3 of the module docstring)."""
        if danger <= DANGER:
            safe = [play for play in candidates if play.bit_count() != danger]
            if safe:
                candidates = safe
            elif danger == 1:
                return max(candidates, key=lambda play: play.bit_length())  # the highest single
        ordinary = [play for play in candidates if not precious(play)]
        lasting = [play for play in ordinary if not unanswerable(play)]
        return lowest_play(tuple(lasting or ordinary or candidates))
