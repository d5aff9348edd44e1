"""The two baseline players: random and greedy."""

from __future__ import annotations

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.views import PlayerView


class RandomBot(Bot):
    """Chooses uniformly among every legal move, the pass included."""

    name = "random"

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return a uniformly random legal move."""
        index = self.rng.randrange(len(plays) + (1 if may_pass else 0))
        return PASS if index == len(plays) else Move(plays[index])


def lowest_play(plays: tuple[int, ...]) -> int:
    """Return the lowest play: the lowest top card, then the fewest cards, then the lowest cards."""
    return min(plays, key=lambda mask: (mask.bit_length(), mask.bit_count(), mask))


class GreedyBot(Bot):
    """Plays its lowest legal play (lowest top card, then fewest cards); passes only when nothing fits."""

    name = "greedy"

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the lowest legal play."""
        return Move(lowest_play(plays))
