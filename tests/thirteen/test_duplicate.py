"""Duplicate play (``parlour thirteen simulate --duplicate``): every player plays every hand of a deal
once, against the same other hands; the figures come deal by deal, and their intervals are narrower
than the same deals played once each."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.thirteen.bots import Bot, make_bot
from parlour.thirteen.duplicate import plain_rounds, play_round, simulate_duplicate
from parlour.thirteen.game import deal_hands
from parlour.thirteen.move import Move
from parlour.thirteen.simulate import game_number
from parlour.thirteen.views import PlayerView


class Watching:
    """A greedy player that notes the hand it was dealt in each round it plays (at its first decision
    of the round, before it has played or passed)."""

    def __init__(self, seed: int) -> None:
        self.bot: Bot = make_bot("greedy", seed)
        self.hands: list[int] = []

    def choose(self, view: PlayerView) -> Move:
        if all(step.seat != view.seat for step in view.history):
            assert len(view.hand) == 13
            self.hands.append(view.hand_mask)
        return self.bot.choose(view)


def test_every_player_plays_every_hand_of_a_deal_once(monkeypatch: pytest.MonkeyPatch) -> None:
    watchers = [Watching(seat) for seat in range(4)]
    made = iter(watchers)
    monkeypatch.setattr("parlour.thirteen.duplicate.make_bot", lambda name, seed: next(made))
    simulate_duplicate(["greedy"] * 4, 2, seed=5)
    for deal in range(2):
        hands = set(deal_hands(game_number(5, deal)))
        for watcher in watchers:
            assert set(watcher.hands[4 * deal : 4 * deal + 4]) == hands  # each of the four hands once


def test_a_deal_gives_out_its_six_points_and_the_same_seed_the_same_figures() -> None:
    run = simulate_duplicate(["heuristic", "greedy", "greedy", "greedy"], 12, seed=3)
    assert run.rounds == 48 and run.deals == 12
    for deal in range(12):
        assert sum(player.points[deal] for player in run.players) == pytest.approx(6.0)
        assert sum(player.firsts[deal] for player in run.players) == pytest.approx(1.0)
    again = simulate_duplicate(["heuristic", "greedy", "greedy", "greedy"], 12, seed=3)
    assert again.to_json() == run.to_json()
    round_ = play_round([make_bot("greedy", seat) for seat in range(4)], game_number(3, 0))
    assert round_.over and sorted(round_.points()) == [0, 1, 2, 3]


def test_duplicate_narrows_the_interval_on_the_same_deals() -> None:
    players = ["heuristic", "greedy", "greedy", "greedy"]
    duplicate = simulate_duplicate(players, 60, seed=1)
    plain = plain_rounds(players, 60, seed=1)
    narrow, wide = duplicate.players[0].points_margin, plain.players[0].points_margin
    assert narrow is not None and wide is not None and narrow < 0.8 * wide
    one = simulate_duplicate(players, 1, seed=1).to_json()  # one deal says nothing of the spread
    assert one["players"][0]["points_margin"] is None and json.loads(json.dumps(one, allow_nan=False))


def test_the_command_line_plays_in_duplicate() -> None:
    args = [
        "thirteen",
        "simulate",
        "--duplicate",
        "--games",
        "3",
        "--players",
        "heuristic,greedy,greedy,greedy",
    ]
    said = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert said["duplicate"] and said["deals"] == 3 and said["rounds"] == 12
    assert [player["name"] for player in said["players"]] == ["heuristic", "greedy", "greedy", "greedy"]
    words = CliRunner().invoke(main, [*args, "--lang", "fr"]).stdout
    assert "Treize en duplicate\u00a0: 3 donnes, 12 manches" in words
