"""Computer players that see only what a person sees, to measure hints against simple play.

* ``greedy``: removes a card whenever one fits (the first of ``hints.preference_order``: one that turns
  the most face-down cards up, then the rightmost lowest), draws otherwise.
* ``fair``: plays the fair hint (``hints.fair_hint``: rollouts of ``greedy`` on sampled deals)
  whenever there is a choice.

Neither looks at a face-down card or the stock order: ``greedy`` uses only the free cards, and the fair
hint deals the unseen cards at random and plays them on with ``greedy``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.game import DRAW, PLAYING, WON, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.hints import DEFAULT_SAMPLES, fair_hint, preference_order

PLAYERS: Final = ("greedy", "fair")
AUTOPLAY_SAMPLES: Final = DEFAULT_SAMPLES
"""The most samples per fair move in autoplay: as many as an interactive hint."""

Chooser = Callable[[Game], str]


def greedy_move(game: Game) -> str:
    """The greedy player's move (see the module docstring)."""
    return preference_order(game)[0] if game.fitting_positions() else DRAW


def fair_chooser(samples: int = AUTOPLAY_SAMPLES, seed: int = 0, core_name: str | None = None) -> Chooser:
    """A chooser playing the fair hint, with a seed that changes at every move of every game."""

    def choose(game: Game) -> str:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        mix = seed * 1_000_003 + (game.code.number if game.code else 0) * 101 + game.moves
        return fair_hint(game, samples=samples, seed=mix, core_name=core_name).move

    return choose


@dataclass(frozen=True, slots=True)
class Played:
    """One game played by a computer player: ``won``, the ``moves`` made and the peak cards ``left``."""

    code: str
    won: bool
    moves: int
    left: int


def play(game: Game, choose: Chooser) -> Played:
    """Play ``game`` to its end with ``choose`` and return the outcome."""
    while game.status == PLAYING:
        game.apply(choose(game))
    return Played(str(game.code), game.status == WON, game.moves, game.cards_left)


def play_number(args: tuple[int, Rules, str, int, int, str | None]) -> Played:
    """Play deal ``number`` with a named player (a top-level function, for worker processes)."""
    number, rules, player, samples, seed, core_name = args
    game = Game.from_code(DealCode(number, rules))
    choose = greedy_move if player == "greedy" else fair_chooser(samples, seed, core_name)
    return play(game, choose)
