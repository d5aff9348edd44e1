"""The PettingZoo Thirteen environment: PettingZoo's API and seed tests, the action encoding against
the engine's legal plays, computer opponents, rewards, refused actions, and observations that never
show another seat's card."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from parlour.errors import InvalidInput
from parlour.thirteen import Match, Rules
from parlour.thirteen.actions import ACTIONS, PASS_ACTION, SHAPES, action_of, play_of
from parlour.thirteen.combos import shape_of
from parlour.thirteen.learn import v0 as thirteen_v0
from parlour.thirteen.learn.env import ThirteenEnv, legal_mask, observe_view
from parlour.thirteen.observation import OBSERVATION_SIZE
from parlour.thirteen.order import THREE_OF_SPADES_BIT

# PettingZoo's own classic environments draw these too: their observations are dicts with a mask.
DICT_OBSERVATIONS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"opponents": {1: "heuristic", 3: "greedy"}},
        {"episode": "round", "rules": Rules(bomb_after_pass=True)},
    ],
)
def test_pettingzoo_api_and_seed_tests(options: dict[str, Any]) -> None:
    api_test(thirteen_v0.env(**options), num_cycles=200)
    seed_test(lambda: thirteen_v0.env(**options), num_cycles=100)


def test_the_action_space_counts_every_shape_once() -> None:
    assert ACTIONS == 453 and len(set(SHAPES)) == 452 and PASS_ACTION == 452
    assert ThirteenEnv().observation_space("player_0")["observation"].shape == (OBSERVATION_SIZE,)
    assert OBSERVATION_SIZE == 178


def random_views(seed: int, moves: int) -> Any:
    """Play a random match for ``moves`` moves, yielding each view of the seat to move."""
    rng = random.Random(seed)
    match = Match(
        rng.randrange(26**7), Rules(bomb_after_pass=rng.random() < 0.5, instant_wins=rng.random() < 0.3)
    )
    for _ in range(moves):
        seat = match.turn
        if seat is None:
            return
        view = match.view(seat)
        yield view
        match.push(rng.choice(view.legal_moves()))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 120))
def test_the_mask_is_exactly_the_shapes_of_the_legal_plays(seed: int, moves: int) -> None:
    for view in random_views(seed, moves):
        legal = set(view.legal_plays())
        mask = legal_mask(view)
        assert {action_of(play) for play in legal} == {int(a) for a in np.flatnonzero(mask)} - {PASS_ACTION}
        assert bool(mask[PASS_ACTION]) == view.may_pass
        for action in np.flatnonzero(mask):
            play = play_of(int(action), view.hand_mask)
            assert play is not None and (play in legal or (play == 0 and view.may_pass))
            if play:
                assert shape_of(play) == SHAPES[int(action)]
                # the cards under the top are the lowest the hand has for the shape
                same_shape = [other for other in legal if shape_of(other) == shape_of(play)]
                assert all(play <= other or (play & ~other) < (other & ~play) for other in same_shape)


def test_the_opening_action_keeps_the_three_of_spades() -> None:
    match = Match(2024)
    view = match.view(match.turn or 0)
    for action in np.flatnonzero(legal_mask(view)):
        play = play_of(int(action), view.hand_mask)
        assert play is not None and play & THREE_OF_SPADES_BIT


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(0, 3), st.randoms(use_true_random=False))
def test_deals_differing_only_in_the_other_hands_look_the_same(number: int, seat: int, shuffler: Any) -> None:
    first, second = Match(number), Match(number)
    hands = list(second.round.hands)
    others = [s for s in range(4) if s != seat]
    # Shuffle the other seats' cards among them (each keeps its count; 3♠ stays where it is, so the
    # same seat leads).
    pool = [bit for s in others for bit in range(52) if hands[s] >> bit & 1 and bit != 0]
    shuffler.shuffle(pool)
    for s in others:
        keep = hands[s] & THREE_OF_SPADES_BIT
        count = hands[s].bit_count() - (1 if keep else 0)
        hands[s] = keep | sum(1 << bit for bit in pool[:count])
        pool = pool[count:]
    second.round.hands = hands
    for _ in range(40):
        a, b = first.view(seat), second.view(seat)
        assert np.array_equal(observe_view(a), observe_view(b))
        assert np.array_equal(legal_mask(a), legal_mask(b))
        turn = first.turn
        if turn is None or first.round.number != second.round.number:
            break
        common = [m for m in first.view(turn).legal_moves() if m in second.view(turn).legal_moves()]
        if not common:
            break
        move = common[0]
        first.push(move)
        second.push(move)


@pytest.mark.parametrize("instant_wins", [False, True])
def test_the_environments_observations_are_those_of_the_views(instant_wins: bool) -> None:
    env = ThirteenEnv(rules=Rules(instant_wins=instant_wins))
    env.reset(seed=9)
    rng = random.Random(9)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert env.match is not None
        view = env.match.view(env.match.turn or 0)
        assert np.array_equal(observation["observation"], observe_view(view))
        assert np.array_equal(observation["action_mask"], legal_mask(view))
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


def test_opponents_move_inside_the_environment_and_rewards_add_up_to_the_scores() -> None:
    env = ThirteenEnv(opponents={1: "greedy", 2: "heuristic", 3: "random"})
    env.reset(seed=3)
    assert env.agents == ["player_0"]
    total = 0.0
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.match is not None and env.match.over
    assert total == env.match.scores[0]


def test_a_refused_action_changes_nothing() -> None:
    env = ThirteenEnv()
    env.reset(seed=1)
    agent = env.agent_selection
    observation = env.observe(agent)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    moves = len(env.match.moves) if env.match else 0
    with pytest.raises(InvalidInput):
        env.step(illegal)
    assert env.match is not None and len(env.match.moves) == moves and env.agent_selection == agent
    with pytest.raises(InvalidInput):
        ThirteenEnv(opponents={0: "nobody"})
    with pytest.raises(InvalidInput):
        ThirteenEnv(opponents=dict.fromkeys(range(4), "greedy"))


def test_a_code_deals_that_match_and_a_round_episode_ends_with_the_round() -> None:
    env = ThirteenEnv(episode="round")
    env.reset(options={"code": "TH1-AAAAAAB"})
    assert env.match is not None and env.match.code == "TH1-AAAAAAB"
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert len(env.match.results) == 1
