"""TriPeaks as a Gymnasium environment (``parlour/TriPeaks-v0``): one player, what the player sees.

Actions are ``Discrete(29)``: 0-27 take the card at that tableau position (``parlour.tripeaks.layout``
numbering, top row first), 28 draws. The observation is built from what the player sees
(``Game.visible_card``, None for a face-down card; the pile; the stock's size, never its order), so no
observation can reveal a hidden card:

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

from collections.abc import Iterable
from typing import Any, Final, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from parlour.cards import JOKER_INDEX
from parlour.errors import InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game, fits
from parlour.tripeaks.layout import COVERS, TABLEAU_SIZE
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
        self._tableau = np.zeros(TABLEAU_SIZE, dtype=np.int64)
        self._action_mask = np.zeros(ACTIONS, dtype=np.int8)
        self._status = "playing"
        self._free: set[int] = set()

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
        observation = self.take_over(Game(Deal.from_number(code.number, self.rules), self.rules, code))
        return observation, self._info(observation)

    def take_over(self, game: Game) -> dict[str, Any]:
        """Go on from ``game`` as it stands (a game in play elsewhere: a person's, a benchmark's) and
        return its observation; the environment then steps that very game.

        Raises:
            InvalidInput: the game is played under other rules than this environment's.
        """
        if game.rules != self.rules:
            raise InvalidInput("the game is played under other rules than this environment's")
        self.game = game
        self._gone[:] = 0
        for card in game.discard:
            self._gone[card.index] = 1
        self._free.clear()
        self._see(game, range(TABLEAU_SIZE))
        return self._observe()

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
        if self._status != "playing":
            raise InvalidInput("the game is over: call reset() for the next one")
        move = int(action)
        before = game.score
        if not (0 <= move < ACTIONS and self._action_mask[move]):
            # Refused as the engine refuses it: nothing changes (a masked policy never gets here).
            observation = self._observe()
            info = self._info(observation) | {"illegal_action": True}
            return observation, 0.0, False, False, info
        if move == DRAW_ACTION:
            game.push_draw()
        else:
            game.push_remove(move)
            self._see(game, (move, *COVERS[move]))
        top = game.discard_top
        assert top is not None  # a move always puts a card on the pile
        self._gone[top.index] = 1
        observation = self._observe()
        terminated = self._status != "playing"
        if self.reward_kind == "score":
            reward = float(game.score - before)
        else:
            reward = 1.0 if self._status == "won" else 0.0
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
        self._playing()
        return [int(action) for action in np.flatnonzero(self._action_mask)]

    def _playing(self) -> Game:
        if self.game is None:
            raise InvalidInput("no game yet: call reset() first")
        return self.game

    def _see(self, game: Game, positions: Iterable[int]) -> None:
        """Update the tableau codes and the free cards at ``positions`` from what the player sees there:
        ``visible_card`` gives None for a face-down card, so no hidden card reaches the observation."""
        for position in positions:
            card = game.visible_card(position)
            if game.removed(position):
                self._tableau[position] = REMOVED
            elif card is None:
                self._tableau[position] = FACE_DOWN
            else:
                self._tableau[position] = 2 + card.index
            if card is not None and game.is_free(position):
                self._free.add(position)
            else:
                self._free.discard(position)

    def _observe(self) -> dict[str, Any]:
        """Return the observation: the tableau codes kept up to date move by move (only the card taken
        and those it uncovers change), the pile's top, the cards gone, the stock's size, the mask."""
        game = self._playing()
        top = game.discard_top
        # The free cards change only where a card was taken: kept move by move, then matched to the top.
        linked = self.rules.king_ace_linked
        fitting = [
            p
            for p in sorted(self._free)
            if (card := game.visible_card(p)) is not None and fits(card, top, linked)
        ]
        draw = game.can_draw()
        mask = np.zeros(ACTIONS, dtype=np.int8)
        mask[fitting] = 1
        mask[DRAW_ACTION] = draw
        self._action_mask = mask
        # No legal action left: the game is won (every card taken) or stuck.
        self._status = "playing" if fitting or draw else "won" if game.cards_left == 0 else "stuck"
        return {
            "tableau": self._tableau.copy(),
            "top": 0 if top is None else 1 + top.index,
            "gone": self._gone.copy(),
            "stock": game.stock_count,
            "action_mask": self._action_mask,
        }

    def _info(self, observation: dict[str, Any]) -> dict[str, Any]:
        game = self._playing()
        # No deal code here: every hidden card follows from it.
        return {"action_mask": observation["action_mask"], "score": game.score, "status": self._status}
