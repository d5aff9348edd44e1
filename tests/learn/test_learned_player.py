"""The learned TriPeaks players: their weights ship small, they play with NumPy alone from what a person
sees, and every move they make is legal."""

from __future__ import annotations

from importlib import resources

import pytest

from parlour.errors import InvalidInput
from parlour.tripeaks import CLASSIC, EASY, DealCode, Game
from parlour.tripeaks.learn.env import TriPeaksEnv
from parlour.tripeaks.learn.player import WEIGHTS, LearnedTriPeaks
from parlour.tripeaks.rules import Rules


@pytest.mark.parametrize("rules", sorted(WEIGHTS))
def test_the_weights_ship_in_the_package_and_are_small(rules: str) -> None:
    path = resources.files("parlour.tripeaks.learn") / "data" / WEIGHTS[rules]
    assert path.is_file() and len(path.read_bytes()) < 5_000_000


@pytest.mark.parametrize("rules", [EASY, CLASSIC])
def test_the_learned_player_plays_whole_games_legally(rules: Rules) -> None:
    player = LearnedTriPeaks(rules.name)
    env = TriPeaksEnv(rules.name)
    for number in range(1, 21):
        game = Game.from_code(DealCode(number, rules))
        observation, _ = env.reset(options={"number": number})
        while game.status == "playing":
            move = player.choose(game)
            assert move in game.legal_actions()
            # The player of a game and of the environment's observation choose the same.
            action = player.act(observation)
            game.apply(move)
            observation, *_ = env.step(action)
        assert env.game is not None and env.game.cards_left == game.cards_left


def test_a_learned_player_refuses_what_it_was_not_trained_for() -> None:
    with pytest.raises(InvalidInput):
        LearnedTriPeaks("spider")
    with pytest.raises(InvalidInput):
        LearnedTriPeaks("easy").choose(Game.from_code(DealCode(1, CLASSIC)))
