"""Thirteen as a PettingZoo AEC environment (``thirteen_v0``): four seats, each seeing its own view.

Agents are ``player_0`` … ``player_3``, one a seat, less the seats given to the ladder's computer
players (``opponents={2: "expert"}``), which move inside ``step`` from their own views. The agent to act
is the seat to move. Each agent's observation is built from its seat's ``PlayerView`` only, so it holds
no other seat's card:

- ``observation`` (``Box(178,)``, float32), seats relative to the agent (index 0 is the agent, then the
  next seats in turn order): its hand (52 bits), the cards on the table (52), the cards played this
  round (52), every seat's card count (4), passed (4), out of the round (4), the table's owner (5: none,
  then the relative seats), whether the play must hold 3♠ (1), the match scores (4). Card bits follow
  Thirteen's strength order (3♠ = 0 … 2♥ = 51).
- ``action_mask`` (``Box(453,)``, int8): the legal actions of ``parlour.thirteen.actions`` (all 0
  for an agent not to move).

Rewards: each seat's points (3, 2, 1, 0) when a round ends. An episode is a match to the rules' target
(or one round, ``episode="round"``). An illegal action is refused with ``InvalidInput`` and changes
nothing. See decision 0052.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from parlour.errors import InvalidInput
from parlour.thirteen.actions import ACTIONS, PASS_ACTION, action_of, play_of
from parlour.thirteen.bots import PLAYERS, Bot, make_bot
from parlour.thirteen.codes import MatchCode
from parlour.thirteen.game import Match
from parlour.thirteen.move import Move
from parlour.thirteen.observation import CARDS, OBSERVATION_SIZE, cards_played
from parlour.thirteen.round import SEATS
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.views import PlayerView

EPISODES: Final = ("match", "round")
MATCH_NUMBERS: Final = 26**7


AGENTS: Final = tuple(f"player_{seat}" for seat in range(SEATS))


def agent_name(seat: int) -> str:
    """Return the agent of a seat: ``player_0`` … ``player_3``."""
    return AGENTS[seat]


def observe_view(view: PlayerView, played: int | None = None) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Return the observation vector of one seat's view (see the module for its layout); ``played``,
    the cards of the view's history, when the caller keeps it already."""
    me = view.seat
    a, b, c, d = me, (me + 1) % SEATS, (me + 2) % SEATS, (me + 3) % SEATS  # the seats from the agent's
    if played is None:
        played = cards_played(view.history)
    # The three card sets as one number, turned into bits at once: hand, then table, then played.
    cards = view.hand_mask | view.table_mask << CARDS | played << (2 * CARDS)
    observation = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    bits = np.unpackbits(np.frombuffer(cards.to_bytes(20, "little"), dtype=np.uint8), bitorder="little")
    observation[: 3 * CARDS] = bits[: 3 * CARDS]
    owner = [0.0] * (SEATS + 1)
    owner[0 if view.table_owner is None else 1 + (view.table_owner - me) % SEATS] = 1.0
    counts, passed, scores, out = view.hand_counts, view.passed, view.scores, view.finished
    # Written out seat by seat: generators here cost more than the rest of the observation.
    observation[3 * CARDS :] = [
        counts[a], counts[b], counts[c], counts[d],
        passed[a], passed[b], passed[c], passed[d],
        a in out, b in out, c in out, d in out,
        *owner,
        view.must_include_three_of_spades,
        scores[a], scores[b], scores[c], scores[d],
    ]  # fmt: skip
    return observation


def legal_mask(view: PlayerView) -> np.ndarray[Any, np.dtype[np.int8]]:
    """Return the legal actions of a seat's view as a 0/1 vector (all 0 when it is not to move)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    if not view.my_turn:
        return mask
    actions = [action_of(play) for play in view.legal_plays()]
    if view.may_pass:
        actions.append(PASS_ACTION)
    mask[actions] = 1
    return mask


class ThirteenEnv(AECEnv):  # type: ignore[misc]  # PettingZoo's classes are untyped
    """The raw environment; :func:`env` wraps it with PettingZoo's order and bounds checks.

    Args:
        rules: the house rules (the spec's by default).
        opponents: seats played by computer players, by name (any of ``parlour.thirteen.bots.PLAYERS``:
            the ladder ``random``, ``greedy``, ``strong``, ``expert``, and the baselines).
        episode: ``"match"`` (to the target points) or ``"round"``.

    Raises:
        InvalidInput: an unknown computer player, seat or episode, or no seat left for an agent.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "thirteen_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules = STANDARD,
        opponents: Mapping[int, str] | None = None,
        episode: str = "match",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        chosen = dict(opponents or {})
        if any(seat not in range(SEATS) for seat in chosen) or any(
            name not in PLAYERS for name in chosen.values()
        ):
            raise InvalidInput(f"opponents {chosen!r}: seats 0-3, players {', '.join(PLAYERS)}")
        if len(chosen) == SEATS:
            raise InvalidInput("every seat is a computer player's: leave one for an agent")
        if episode not in EPISODES:
            raise InvalidInput(f"episode {episode!r}: choose one of {', '.join(EPISODES)}")
        if render_mode not in (None, "ansi"):
            raise InvalidInput(f"render mode {render_mode!r}: only 'ansi' (text) is offered")
        self.rules = rules
        self.opponents = chosen
        self.episode = episode
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(SEATS) if seat not in chosen]
        self._seat_of = {agent_name(seat): seat for seat in range(SEATS)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (OBSERVATION_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in self.possible_agents}
        self.match: Match | None = None
        self.bots: dict[int, Bot] = {}
        self._played = 0
        """The cards played in the round so far (the history every seat sees), kept move by move."""
        self._cached: tuple[tuple[int, int, int], PlayerView, np.ndarray[Any, np.dtype[np.int8]]] | None = (
            None
        )
        self._rng, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Dict:
        """Return the agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """Return the agent's action space: ``Discrete(453)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match: ``options={"code": "TH1-…"}`` (or ``TH2-…``), else a match drawn from the
        seeded generator; the computer players' seeds come from the same generator. Other options are ignored.

        Raises:
            InvalidCode: a bad code.
        """
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
        # Other options are ignored: PettingZoo's API test passes options of its own.
        options = dict(options or {})
        deals = MatchCode(number=int(self._rng.integers(MATCH_NUMBERS)))
        if "code" in options:
            deals = MatchCode.parse(str(options["code"]))
        self.match = Match(deals, self.rules)
        self._played = cards_played(self.match.round.steps)  # an instant win shows its hand at once
        self.bots = {
            seat: make_bot(name, int(self._rng.integers(2**62))) for seat, name in self.opponents.items()
        }
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rounds = 0
        self.agent_selection = self.agents[0]
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        """Return what ``agent`` sees now: its observation vector and its legal actions."""
        view, mask = self._seen(self._seat_of[agent])
        return {"observation": observe_view(view, self._played), "action_mask": mask.copy()}

    def _seen(self, seat: int) -> tuple[PlayerView, np.ndarray[Any, np.dtype[np.int8]]]:
        """Return a seat's view now and its legal actions, kept until the next move (an agent observes,
        then steps: both need them)."""
        match = self._match()
        key = (id(match), len(match.moves), seat)
        if self._cached is None or self._cached[0] != key:
            view = match.view(seat)
            self._cached = (key, view, legal_mask(view))
        return self._cached[1], self._cached[2]

    def step(self, action: int | None) -> None:
        """Make the acting agent's move (an action of ``parlour.thirteen.actions``), then the
        computer players' until an agent is to move or the episode ends.

        Raises:
            InvalidInput: the action is not legal now (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        view, mask = self._seen(self._seat_of[agent])
        chosen = -1 if action is None else int(action)
        play = play_of(chosen, view.hand_mask) if 0 <= chosen < ACTIONS and mask[chosen] else None
        if play is None:
            raise InvalidInput(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._push(Move(play))
        self._advance()

    def render(self) -> str | None:
        """Return the match as text (``render_mode="ansi"``): the round, the table and the scores, no hand."""
        if self.render_mode != "ansi" or self.match is None:
            return None
        view = self.match.view(0)
        table = " ".join(str(card) for card in view.table) or "empty"
        return (
            f"round {view.round}  table {table}  counts {list(view.hand_counts)}  scores {list(view.scores)}"
        )

    def close(self) -> None:
        """Nothing to release."""

    # ---- the match ---------------------------------------------------------------------------------

    def _match(self) -> Match:
        if self.match is None:
            raise InvalidInput("no match yet: call reset() first")
        return self.match

    def _push(self, move: Move) -> None:
        """Make a move for the seat to move; at a round's end hand out its points as rewards."""
        match = self._match()
        rounds = len(match.results)
        match.push(move)
        self._played |= move.mask
        if len(match.results) > rounds:
            self._played = cards_played(match.round.steps)  # a new round is dealt
            points = match.results[-1].points
            for agent in self.agents:
                self.rewards[agent] += float(points[self._seat_of[agent]])
            self._rounds += 1

    def _over(self) -> bool:
        match = self._match()
        return match.over or (self.episode == "round" and self._rounds > 0)

    def _advance(self) -> None:
        """Let the computer players move until an agent is to move or the episode is over, then pass the
        turn to that agent (or end the episode for every agent)."""
        match = self._match()
        bots = self.bots
        over = self._over()
        while not over:
            seat = match.turn
            if seat is None or seat not in bots:
                break
            self._push(bots[seat].choose(match.view(seat)))
            over = self._over()
        self._accumulate_rewards()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            return
        turn = match.turn
        assert turn is not None  # the episode is not over: someone is to move
        self.agent_selection = AGENTS[turn]


def env(**options: Any) -> Any:
    """Return the Thirteen environment (see :class:`ThirteenEnv` for ``options``), wrapped as
    PettingZoo's own environments are: an action out of range or a step out of order is reported."""
    made = ThirteenEnv(**options)
    made = wrappers.AssertOutOfBoundsWrapper(made)
    return wrappers.OrderEnforcingWrapper(made)
