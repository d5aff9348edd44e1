"""The rating table: a Bradley–Terry fit of finishing orders from a round-robin of mixed tables."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.thirteen.ratings import elo, fit, ratings, round_robin


def synthetic_orders(strengths: dict[str, float], rounds: int, seed: int) -> list[tuple[str, ...]]:
    """Rounds of four players whose orders follow the Plackett–Luce model of ``strengths`` (each
    place goes to a player with probability proportional to their strength), which agrees with
    Bradley–Terry on every duel."""
    rng = random.Random(seed)
    tables = list(itertools.combinations(strengths, 4))
    orders = []
    for n in range(rounds):
        left = list(tables[n % len(tables)])
        order = []
        while left:
            pick = rng.choices(left, weights=[strengths[name] for name in left])[0]
            order.append(pick)
            left.remove(pick)
        orders.append(tuple(order))
    return orders


def test_the_fit_recovers_known_strengths() -> None:
    truth = {"a": 1.0, "b": 2.0, "c": 4.0, "d": 8.0, "e": 16.0}
    fitted = fit(synthetic_orders(truth, 4000, seed=1), list(truth))
    for weaker, stronger in itertools.pairwise(truth):
        assert fitted[stronger] / fitted[weaker] == pytest.approx(2.0, rel=0.15)
    points = elo(fitted)
    assert points["a"] == 0 and 430 < points["e"] < 530  # 400 · log10(16) = 482: 120 points a doubling


def test_ratings_come_strongest_first_with_intervals_that_hold_them() -> None:
    truth = {"a": 1.0, "b": 3.0, "c": 9.0, "d": 27.0}
    table = ratings(synthetic_orders(truth, 600, seed=2), list(truth), resamples=50)
    assert [rating.name for rating in table] == ["d", "c", "b", "a"]
    for rating in table:
        assert rating.low <= rating.rating <= rating.high and rating.rounds == 600


def test_a_player_that_never_loses_has_no_finite_rating() -> None:
    with pytest.raises(ValueError, match="play more games"):
        fit([("a", "b", "c", "d")] * 5, ["a", "b", "c", "d"])


def test_a_round_robin_seats_every_four_of_the_players() -> None:
    orders = round_robin(["random", "greedy", "keeper", "heuristic", "expert"][:4], 1, seed=3)
    assert orders and all(
        sorted(order) == sorted(["random", "greedy", "keeper", "heuristic"]) for order in orders
    )
    with pytest.raises(ValueError, match="at least 4 different"):
        round_robin(["random", "greedy", "greedy", "keeper"], 1)


def test_the_ratings_command_prints_json_and_refuses_bad_players() -> None:
    runner = CliRunner()
    done = runner.invoke(
        main, ["thirteen", "ratings", "--players", "random,greedy,keeper,heuristic", "--games", "2", "--json"]
    )
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["tables"] == 1 and {row["name"] for row in answer["ratings"]} == {
        "random",
        "greedy",
        "keeper",
        "heuristic",
    }
    refused = runner.invoke(main, ["thirteen", "ratings", "--players", "random,greedy,smart,keeper"])
    assert refused.exit_code == 2 and "'smart'" in refused.output
    again = runner.invoke(main, ["thirteen", "ratings", "--players", "random,greedy,keeper"])
    assert again.exit_code == 2 and "at least 4" in again.output
