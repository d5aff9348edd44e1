"""Computer players that see only what a person sees, and the hint strengths they stand for.

The three players are a ladder, weakest first, and each is also a strength of the hint a person may
ask for (the web page's setting, the terminal app, ``parlour tripeaks play``):

* ``greedy`` ("Simple"): removes a card whenever one fits (the first of ``hints.preference_order``:
  one that turns the most face-down cards up, then the rightmost lowest), draws otherwise. As a hint,
  that move with its chance when play goes on the same way (400 rollouts of it alone).
* ``quick`` ("Quick"): the fair hint on one batch of 200 samples: every legal move judged by rollouts
  of ``greedy`` on sampled deals.
* ``fair`` ("Thorough"): the fair hint on 400 to 3,200 samples, stopping once the best move is clearly
  ahead (an interactive hint spends the whole 3,200, for a narrow interval).

None looks at a face-down card or the stock order: ``greedy`` uses only the free cards, and the fair
hint deals the unseen cards at random and plays them on with ``greedy``. ``docs/results.md`` has the
ladder's measured win rates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from parlour.errors import InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.game import DRAW, PLAYING, WON, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.hints import (
    BATCH,
    DEFAULT_SAMPLES,
    MIN_SAMPLES,
    Hint,
    fair_hint,
    preference_order,
)

PLAYERS: Final = ("greedy", "quick", "fair")
"""The players, weakest first: also the hint strengths."""
STRENGTH_NAMES: Final = {"greedy": "Simple", "quick": "Quick", "fair": "Thorough"}
"""Each hint strength's name for people (a ``web`` msgid)."""
DEFAULT_STRENGTH: Final = "fair"
AUTOPLAY_SAMPLES: Final = DEFAULT_SAMPLES
"""The most samples per fair move in autoplay: as many as an interactive hint."""
QUICK_SAMPLES: Final = BATCH
"""The samples of a quick hint: one batch."""
SIMPLE_SAMPLES: Final = MIN_SAMPLES
"""The samples that give a simple hint (greedy play's own move) its chance."""

Chooser = Callable[[Game], str]


def checked_strength(strength: object) -> str:
    """Return ``strength`` when it names a hint strength; None gives the default.

    Raises:
        InvalidInput: anything else (the message lists the strengths).
    """
    if strength is None:
        return DEFAULT_STRENGTH
    if not isinstance(strength, str) or strength not in PLAYERS:
        raise InvalidInput(f"a hint strength is one of {', '.join(PLAYERS)}, not {strength!r:.40}")
    return strength


def hint_at(
    game: Game,
    strength: str,
    *,
    seed: int,
    samples: int = DEFAULT_SAMPLES,
    core_name: str | None = None,
    spend_all: bool = True,
) -> Hint:
    """Return the hint of this strength for a game in play, judged only from what the player sees.

    ``samples`` is the thorough hint's budget, spent whole when ``spend_all`` (a person reads the
    chance: a narrow interval), else drawn until the best move is clearly ahead (400 samples at least);
    the quick and simple hints spend their own fixed budgets, or ``samples`` when smaller.

    Raises:
        GameOver: the game is won or stuck.
        InvalidInput: an unknown strength.
    """
    strength = checked_strength(strength)
    if strength == "greedy":
        budget = min(SIMPLE_SAMPLES, samples)
        return fair_hint(game, samples=budget, min_samples=budget, seed=seed, core_name=core_name, judged=1)
    if strength == "quick":
        budget = min(QUICK_SAMPLES, samples)
        return fair_hint(game, samples=budget, min_samples=budget, seed=seed, core_name=core_name)
    least = samples if spend_all else MIN_SAMPLES
    return fair_hint(game, samples=samples, min_samples=least, seed=seed, core_name=core_name)


def greedy_move(game: Game) -> str:
    """The greedy player's move (see the module docstring)."""
    return preference_order(game)[0] if game.fitting_positions() else DRAW


def chooser(
    player: str, samples: int = AUTOPLAY_SAMPLES, seed: int = 0, core_name: str | None = None
) -> Chooser:
    """Return the chooser of a player of :data:`PLAYERS`: ``greedy`` plays greedy play's move, the
    others play their hint (:func:`hint_at`, the fair one stopping once its lead is clear) whenever
    there is a choice, with a seed that changes at every move of every game. ``samples`` is the fair
    player's most samples a move; the quick player spends one batch, or ``samples`` when smaller.

    Raises:
        InvalidInput: an unknown player.
    """
    player = checked_strength(player)
    if player == "greedy":
        return greedy_move

    def choose(game: Game) -> str:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        mix = seed * 1_000_003 + (game.code.number if game.code else 0) * 101 + game.moves
        return hint_at(game, player, seed=mix, samples=samples, core_name=core_name, spend_all=False).move

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
    return play(game, chooser(player, samples, seed, core_name))
