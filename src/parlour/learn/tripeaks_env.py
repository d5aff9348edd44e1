"""TriPeaks as a Gymnasium environment (``parlour/TriPeaks-v0``): one player, what the player sees.

Actions are ``Discrete(29)``: 0-27 take the card at that tableau position (``parlour.tripeaks.layout``
numbering, top row first), 28 draws. The observation is built from ``Game.view()`` alone, which holds
no face-down card and no stock order, so no observation can reveal one:

- ``tableau``: 28 codes, 0 for a removed card, 1 for a face-down one, else 2 + the card's index (0-51,
  52 for the joker);
- ``top``: the discard pile's top, 0 for an empty pile, else 1 + its index;
- ``gone``: 53 bits, the cards on the discard pile (everything the player has seen leave play);
- ``stock``: how many cards are left to draw;
- ``action_mask``: 29 bits, the legal actions now (also ``info["action_mask"]``).

An episode ends when the game is won or no move is left (``terminated``). An action that is not
legal now changes nothing (reward 0, ``info["illegal_action"]``). Rewards: ``"win"`` gives 1 at
the end of a won game and 0 otherwise; ``"score"`` gives each step's change of the app's score. See
decision 0052.
"""

from __future__ import annotations

from typing import Any, Final, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from parlour.cards import JOKER_INDEX
from parlour.errors import InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.rules import Rules

DRAW_ACTION: Final = TABLEAU_SIZE
"""The action that draws from the stock (28)."""
ACTIONS: Final = TABLEAU_SIZE + 1
REMOVED: Final = 0
FACE_DOWN: Final = 1
CARD_CODES: Final = JOKER_INDEX + 1
"""Card indices 0-52 (the joker last)."""
MAX_STOCK: Final = 24
"""The most cards a stock can hold (52 or 53 cards, 28 in the peaks, perhaps one on the discard pile)."""
DEAL_NUMBERS: Final = 26**7
REWARDS: Final = ("win", "score")


class TriPeaksEnv(gym.Env[dict[str, Any], np.int64]):
    """One TriPeaks game an episode, for one player who sees what a person sees.

    Args:
        rules: ``"easy"`` (King and Ace linked) or ``"classic"``, or a ``Rules`` value (variants too).
        reward: ``"win"`` or ``"score"`` (see the module).

    Raises:
        InvalidInput: unknown rules or reward.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # Gymnasium's own attribute

    def __init__(
        self, rules: str | Rules = "easy", reward: str = "win", render_mode: str | None = None
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.named(rules)
        if reward not in REWARDS:
            raise InvalidInput(f"reward {reward!r}: choose one of {', '.join(REWARDS)}")
        if render_mode not in (None, "ansi"):
            raise InvalidInput(f"render mode {render_mode!r}: only 'ansi' (text) is offered")
        self.reward_kind = reward
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTIONS)
        self.observation_space = spaces.Dict(
            {
                "tableau": spaces.MultiDiscrete(np.full(TABLEAU_SIZE, 2 + CARD_CODES, dtype=np.int64)),
                "top": spaces.Discrete(1 + CARD_CODES),
                "gone": spaces.MultiBinary(CARD_CODES),
                "stock": spaces.Discrete(MAX_STOCK + 1),
                "action_mask": spaces.MultiBinary(ACTIONS),
            }
        )
        self.game: Game | None = None
        self._gone = np.zeros(CARD_CODES, dtype=np.int8)

    # ---- the Gymnasium API -----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game: ``options={"code": "TP1-…"}`` or ``{"number": N}`` (a deal number, the
        numbered game N under Easy or Classic), else a number drawn from the seeded generator.

        Returns:
            The first observation and ``info`` (``action_mask``, ``score``, ``status``; never the deal
            code, from which every hidden card follows).

        Raises:
            InvalidInput, InvalidCode: an unknown option, a bad code or a code of other rules.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = sorted(set(options) - {"code", "number"})
        if unknown:
            raise InvalidInput(f"unknown reset option(s): {', '.join(unknown)}")
        if "code" in options:
            code = DealCode.parse(str(options["code"]))
            if code.rules != self.rules:
                raise InvalidInput(f"the code {code} is for other rules than this environment's")
        else:
            number = options.get("number")
            if number is None:
                number = int(self.np_random.integers(DEAL_NUMBERS))
            code = DealCode(int(number), self.rules)
        self.game = Game(Deal.from_number(code.number, self.rules), self.rules, code)
        self._gone[:] = 0
        for card in self.game.view().discard:
            self._gone[card.index] = 1
        observation = self._observe()
        return observation, self._info(observation)

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Take the card at position ``action`` (0-27) or draw (28). An action that is not legal now
        changes nothing: reward 0 and ``info["illegal_action"]`` True.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``truncated`` is always False (the
            registered environment adds Gymnasium's time limit of 1,000 steps).

        Raises:
            InvalidInput: there is no game (``reset`` first), or it is over.
        """
        game = self._playing()
        if game.status != "playing":
            raise InvalidInput("the game is over: call reset() for the next one")
        move = int(action)
        before = game.score
        if move == DRAW_ACTION and game.can_draw():
            game.push_draw()
        elif 0 <= move < TABLEAU_SIZE and move in game.fitting_positions():
            game.push_remove(move)
        else:
            # Refused as the engine refuses it: nothing changes (a masked policy never gets here).
            observation = self._observe()
            info = self._info(observation) | {"illegal_action": True}
            return observation, 0.0, False, False, info
        self._gone[game.discard[-1].index] = 1
        observation = self._observe()
        terminated = not bool(observation["action_mask"].any())
        if self.reward_kind == "score":
            reward = float(game.score - before)
        else:
            reward = 1.0 if terminated and game.status == "won" else 0.0
        return observation, reward, terminated, False, self._info(observation)

    def render(self) -> str | None:
        """Return the game as text (``render_mode="ansi"``): its JSON view as the player sees it."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        view = self.game.view()
        rows = " ".join("--" if s.removed else str(s.card) if s.card else "##" for s in view.tableau)
        top = str(view.discard[-1]) if view.discard else "--"
        return f"{rows}\ntop {top}  stock {view.stock}  score {view.score}  {view.status}"

    # ---- helpers ---------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Return the legal actions now (positions of fitting free cards, then 28 when a draw is allowed)."""
        mask = self._mask(self._playing())
        return [int(action) for action in np.flatnonzero(mask)]

    def _playing(self) -> Game:
        if self.game is None:
            raise InvalidInput("no game yet: call reset() first")
        return self.game

    def _mask(self, game: Game) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if game.status != "playing":
            return mask
        mask[game.fitting_positions()] = 1
        mask[DRAW_ACTION] = game.can_draw()
        return mask

    def _observe(self) -> dict[str, Any]:
        """Build the observation from the player's view only."""
        game = self._playing()
        view = game.view()
        tableau = np.fromiter(
            (
                REMOVED if slot.removed else FACE_DOWN if slot.card is None else 2 + slot.card.index
                for slot in view.tableau
            ),
            dtype=np.int64,
            count=TABLEAU_SIZE,
        )
        return {
            "tableau": tableau,
            "top": 1 + view.discard[-1].index if view.discard else 0,
            "gone": self._gone.copy(),
            "stock": view.stock,
            "action_mask": self._mask(game),
        }

    def _info(self, observation: dict[str, Any]) -> dict[str, Any]:
        game = self._playing()
        # No deal code here: every hidden card follows from it.
        return {"action_mask": observation["action_mask"], "score": game.score, "status": game.status}
