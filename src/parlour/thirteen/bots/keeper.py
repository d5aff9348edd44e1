"""The structure keeper: a baseline that plays like a careful beginner, for measuring the others.

It splits its hand as the heuristic player does (``best_split``: sequences, pairs, triples and bombs
kept together) and plays the lowest of those units that the table allows, 2s and bombs last. It passes
only on a 2 or a bomb: when no unit fits a table that holds one. Otherwise, when no unit fits, it plays
its lowest play that holds no 2 and is no bomb, breaking a unit. It goes out when its whole hand is a
play. There is no look-ahead and no reading of the others; against three heuristic players it takes
31.3% of first places over 2,228 rounds (``parlour thirteen simulate``), so the heuristic is the player
to beat, and a stronger player must beat this one clearly too (the ladder of issue 13).
"""

from __future__ import annotations

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import best_split
from parlour.thirteen.bots.simple import lowest_play
from parlour.thirteen.combos import is_bomb
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.order import TWO
from parlour.thirteen.views import PlayerView

_TWOS = 0xF << (4 * TWO)


def precious(play: int) -> bool:
    """Return True for a play that spends a 2 or is a bomb."""
    return bool(play & _TWOS) or is_bomb(play)


def by_structure(hand: int, plays: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Return, of the legal ``plays``: those that spend no 2 and are no bomb, those of them that are
    units of the hand's split (``best_split``), and the 2s and bombs that are units (kept whole)."""
    units = set(best_split(hand))
    ordinary = tuple(play for play in plays if not precious(play))
    return (
        ordinary,
        tuple(play for play in ordinary if play in units),
        tuple(play for play in plays if play in units and precious(play)),
    )


class KeeperBot(Bot):
    """Plays its lowest unit that keeps its hand's structure (see the module docstring)."""

    name = "keeper"

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the keeper's move."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        ordinary, kept, special = by_structure(hand, plays)
        if kept:
            return Move(lowest_play(kept))
        if special:
            return Move(lowest_play(special))
        if may_pass and precious(view.table_mask):
            return PASS
        if ordinary:
            return Move(lowest_play(tuple(ordinary)))
        if may_pass:
            return PASS
        return Move(lowest_play(plays))
