"""Computer players for Thirteen. Each takes a seed and chooses from a ``PlayerView`` alone.

``make_bot(name, seed)`` builds one by name: ``random``, ``greedy``, ``strong`` or ``expert`` (the
players offered to people, the ladder Beginner, Casual, Strong and Expert), or a player the others are
measured against: ``heuristic`` (the Strong player until issue 28, and the Expert's first model of the
others), ``keeper`` (structure-keeping greedy play) with its variants ``keeper-patient`` and
``keeper-eager`` (the same structure, a slower and a faster temper), ``sampler`` (a plain determinized
search) or ``learned`` (a network trained by self-play).
"""

from __future__ import annotations

from typing import Final

from parlour.errors import InvalidInput
from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.expert import ExpertBot
from parlour.thirteen.bots.heuristic import HeuristicBot
from parlour.thirteen.bots.keeper import EagerKeeperBot, KeeperBot, PatientKeeperBot
from parlour.thirteen.bots.learned import LearnedBot
from parlour.thirteen.bots.sampler import SamplerBot
from parlour.thirteen.bots.simple import GreedyBot, RandomBot
from parlour.thirteen.bots.strong import StrongBot

BOTS: Final[dict[str, type[Bot]]] = {bot.name: bot for bot in (RandomBot, GreedyBot, StrongBot, ExpertBot)}
"""The computer players offered to people, by name, weakest first: the ladder Beginner, Casual, Strong,
Expert."""
BASELINES: Final[dict[str, type[Bot]]] = {
    bot.name: bot
    for bot in (HeuristicBot, KeeperBot, PatientKeeperBot, EagerKeeperBot, SamplerBot, LearnedBot)
}
"""Players for measuring the others only (``parlour thirteen simulate`` and ``ratings``, the benchmarks,
the learning environments' opponents)."""
PLAYERS: Final[dict[str, type[Bot]]] = {**BOTS, **BASELINES}
"""Every computer player ``make_bot`` can build."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """Return a new computer player of this name with this seed.

    Raises:
        InvalidInput: no player has this name (the message lists the names).
    """
    try:
        return PLAYERS[name.strip().lower()](seed)
    except KeyError:
        raise InvalidInput(f"no computer player is called {name!r}: choose {', '.join(PLAYERS)}") from None


__all__ = [
    "BASELINES",
    "BOTS",
    "PLAYERS",
    "Bot",
    "EagerKeeperBot",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "KeeperBot",
    "LearnedBot",
    "PatientKeeperBot",
    "RandomBot",
    "SamplerBot",
    "StrongBot",
    "make_bot",
]
