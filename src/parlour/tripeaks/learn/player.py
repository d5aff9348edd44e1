"""The learned TriPeaks player, played with NumPy alone (no PyTorch): a small network trained by
``scripts/train_tripeaks.py`` whose weights ship with the package (``parlour/tripeaks/learn/data``).

It sees what a person sees: its inputs come from the environment's observation
(``parlour.tripeaks.learn.features``), and it plays the legal action its network scores highest.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Final

import numpy as np

from parlour.errors import InvalidInput
from parlour.tripeaks.game import DRAW, Game
from parlour.tripeaks.learn.env import DRAW_ACTION, TriPeaksEnv
from parlour.tripeaks.learn.features import features
from parlour.tripeaks.rules import Rules

WEIGHTS: Final = {"easy": "tripeaks_easy.npz", "classic": "tripeaks_classic.npz"}
"""The shipped weights of each rule set's player."""


class LearnedTriPeaks:
    """A trained network's player for one rule set (``easy`` or ``classic``).

    Raises:
        InvalidInput: no weights ship for these rules.
    """

    def __init__(self, rules: str) -> None:
        if rules not in WEIGHTS:
            raise InvalidInput(f"no learned player for the rules {rules!r}: {', '.join(WEIGHTS)}")
        self.rules = rules
        self.layers = _weights(rules)
        self._envs: dict[Rules, TriPeaksEnv] = {}
        """One environment per rule set met (variants too): made once, it only reads the games given."""

    def scores(self, observation: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Return the network's score of each of the 29 actions for an observation (illegal ones -inf)."""
        hidden = features(observation)
        (w0, b0), (w1, b1), (w2, b2) = self.layers
        hidden = np.tanh(hidden @ w0 + b0)
        hidden = np.tanh(hidden @ w1 + b1)
        scores = hidden @ w2 + b2
        return np.where(observation["action_mask"].astype(bool), scores, -np.inf).astype(np.float32)

    def act(self, observation: dict[str, Any]) -> int:
        """Return the legal action scored highest.

        Raises:
            InvalidInput: no action is legal (the game is over).
        """
        if not observation["action_mask"].any():
            raise InvalidInput("the game is over: there is no move to choose")
        return int(np.argmax(self.scores(observation)))

    def choose(self, game: Game) -> str:
        """Return the move (``KC`` or ``draw``) this player makes in ``game``, from what a person sees
        of it: the same chooser shape as the hint ladder's players.

        Raises:
            InvalidInput: the game is over, or it is played under other rules.
        """
        if game.rules.name != self.rules:
            raise InvalidInput(f"this player learned {self.rules}, not {game.rules.name}")
        env = self._envs.get(game.rules)
        if env is None:
            env = self._envs[game.rules] = TriPeaksEnv(game.rules)
        action = self.act(env.take_over(game))
        if action == DRAW_ACTION:
            return DRAW
        card = game.visible_card(action)
        assert card is not None  # a legal action is a face-up card
        return str(card)


@cache
def _weights(rules: str) -> tuple[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]], ...]:
    path = resources.files("parlour.tripeaks.learn") / "data" / WEIGHTS[rules]
    with resources.as_file(path) as file, np.load(file) as data:
        return tuple((data[f"w{n}"], data[f"b{n}"]) for n in range(3))
