"""The Gymnasium TriPeaks environment: Gymnasium's own checks, seeds, numbered games, legal-action
masks, rewards, and observations that never show a hidden card."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour.learn
from parlour.errors import InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game
from parlour.tripeaks.learn import ENVIRONMENT_ID
from parlour.tripeaks.learn.env import DRAW_ACTION, TriPeaksEnv
from parlour.tripeaks.rules import CLASSIC, EASY


def test_gymnasium_checks_the_registered_environment() -> None:
    assert "tripeaks" in parlour.learn.GAMES  # importing parlour.learn called TriPeaks' learning hook
    env = gym.make(ENVIRONMENT_ID, rules="classic")
    check_env(env.unwrapped)
    assert env.spec is not None and env.spec.max_episode_steps == 1000


def play_randomly(env: TriPeaksEnv, seed: int, actions: int = 60) -> list[dict[str, Any]]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [observation]
    for _ in range(actions):
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            break
        observation, _, terminated, _, _ = env.step(rng.choice(legal))
        seen.append(observation)
        if terminated:
            break
    return seen


def test_the_same_seed_deals_and_plays_the_same_game() -> None:
    first, second = play_randomly(TriPeaksEnv(), 11), play_randomly(TriPeaksEnv(), 11)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert all(np.array_equal(a[key], b[key]) for key in a)
    other = play_randomly(TriPeaksEnv(), 12)
    assert not np.array_equal(first[0]["tableau"], other[0]["tableau"])


def test_a_numbered_game_and_a_code_deal_that_game() -> None:
    env = TriPeaksEnv("classic")
    observation, info = env.reset(options={"number": 7})
    game = Game(Deal.from_number(7, CLASSIC), CLASSIC)
    for position, slot in enumerate(game.view().tableau):
        assert observation["tableau"][position] == (1 if slot.card is None else 2 + slot.card.index)
    assert "code" not in info  # the code would tell every hidden card
    again, _ = env.reset(options={"code": str(DealCode(7, CLASSIC))})
    assert np.array_equal(again["tableau"], observation["tableau"])
    with pytest.raises(InvalidInput):
        env.reset(options={"code": str(DealCode(7, EASY))})
    with pytest.raises(InvalidInput):
        env.reset(options={"seat": 1})


def test_masks_rewards_and_refused_actions() -> None:
    env = TriPeaksEnv(reward="score")
    observation, info = env.reset(seed=5)
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    game = env.game
    assert game is not None
    legal = set(env.legal_actions())
    assert legal == {*game.fitting_positions(), *([DRAW_ACTION] if game.can_draw() else [])}
    illegal = next(action for action in range(29) if action not in legal)
    before = game.view()
    refused = env.step(illegal)
    assert refused[4]["illegal_action"] and refused[1] == 0.0 and game.view() == before
    score = game.score
    _, reward, *_ = env.step(min(legal))
    assert reward == game.score - score


def test_a_won_game_ends_with_reward_one() -> None:
    # Game #1 under Easy is winnable; the solver's line wins it.
    from parlour.tripeaks.solver import solve

    game = Game.from_code(DealCode(1, EASY))
    solution = solve(game, EASY)
    assert solution.winnable and solution.line is not None
    env = TriPeaksEnv()
    env.reset(options={"number": 1})
    terminated, reward = False, 0.0
    for move in solution.line:
        action = (
            DRAW_ACTION
            if move == "draw"
            else next(
                p for p in range(28) if env.game is not None and str(env.game.view().tableau[p].card) == move
            )
        )
        _, reward_step, terminated, _, info = env.step(action)
        reward = float(reward_step)
    assert terminated and reward == 1.0 and info["status"] == "won"
    with pytest.raises(InvalidInput):
        env.step(DRAW_ACTION)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_deals_differing_only_in_hidden_cards_give_the_same_observations(
    number: int, seed: int, shuffler: Any
) -> None:
    env = TriPeaksEnv()
    env.reset(options={"number": number})
    rng = np.random.default_rng(seed)
    actions = []
    observation = env._observe()
    for _ in range(rng.integers(0, 30)):
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            break
        actions.append(int(rng.choice(legal)))
        observation, *_ = env.step(actions[-1])
        game = env.game
        assert game is not None  # the mask kept move by move is the engine's own answer
        assert env.legal_actions() == [*game.fitting_positions(), *([DRAW_ACTION] if game.can_draw() else [])]
    game = env.game
    assert game is not None
    # The cards never seen in this game: face-down tableau cards and the stock. Shuffle them.
    view = game.view()
    deal = game.deal
    hidden_positions = [p for p, slot in enumerate(view.tableau) if slot.card is None]
    drawn = sum(1 for action in actions if action == DRAW_ACTION)
    hidden_cards = [deal.tableau[p] for p in hidden_positions] + list(deal.stock[drawn:])
    shuffler.shuffle(hidden_cards)
    tableau = list(deal.tableau)
    for p in hidden_positions:
        tableau[p] = hidden_cards.pop(0)
    other = Deal(tuple(tableau), deal.discard, (*deal.stock[:drawn], *hidden_cards))
    twin = TriPeaksEnv()
    twin.take_over(Game(other, EASY))
    first = TriPeaksEnv()
    first.reset(options={"number": number})
    assert all(np.array_equal(first._observe()[key], twin._observe()[key]) for key in observation)
    for action in actions:
        a, *_ = first.step(action)
        b, *_ = twin.step(action)
        assert all(np.array_equal(a[key], b[key]) for key in a)
