"""People's ratings updated per round or per match (decision 0062): which predicts held-out play better,
and how fast a newcomer's rating settles.

Seven computer players of different strengths sit at every table of four of them for ``--games``
whole matches to 10 points (seats rotated). The matches are shuffled (seeded); the first three quarters
train two OpenSkill Plackett–Luce models with Parlour's settings, every player starting as a newcomer:

- *per round*: one update per round, from its finishing order (what Parlour does);
- *per match*: one update per match, from its final ranking by points (ties shared).

On the held-out quarter it prints each model's mean log-likelihood of a round's finishing order (higher
is better; a model that knows nothing scores log(1/24) = -3.18). Then, as Parlour rates people, each
player in turn joins as a newcomer while the others keep ratings fitted to the training rounds: how
far its rating is from its own fitted rating after 10 to 250 rounds, and its σ after 10, 20 and 40
rounds (``parlour.games.ratings.PROVISIONAL_SIGMA`` is chosen from it). The last
line is::

    rating rounds: per-round LL A, per-match LL B, newcomer off by E points at 20 rounds, F at 100, sigma@20 S

Run: ``.venv/bin/python benchmarks/rating_rounds.py --games 40``
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from parlour.games.ratings import BETA, KAPPA, MU, SIGMA, TAU, Entrant, Skill, fit_fixed, rate_round
from parlour.thirteen.bots import make_bot
from parlour.thirteen.simulate import play_rotated

PLAYERS = ("random", "greedy", "strong", "keeper", "heuristic", "keeper-patient", "keeper-eager")

Match = tuple[list[tuple[str, ...]], dict[str, int]]
"""A match: its rounds' finishing orders (by name) and each player's points at the end."""


def play(games: int, seed: int) -> list[Match]:
    """Play ``games`` matches at every table of four of :data:`PLAYERS`."""
    matches: list[Match] = []
    for table, names in enumerate(itertools.combinations(PLAYERS, 4)):
        bots = [make_bot(name, (seed * 64 + table) * 4 + index) for index, name in enumerate(names)]
        for game in range(games):
            played, at_seat = play_rotated(bots, seed * 64 + table, game)
            orders = [tuple(names[at_seat[seat]] for seat in result.order) for result in played.results]
            totals = {names[at_seat[seat]]: points for seat, points in enumerate(played.scores)}
            matches.append((orders, totals))
    return matches


def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA, limit_sigma=False, balance=False)


def log_likelihood(order: Sequence[str], ratings: dict[str, PlackettLuceRating]) -> float:
    """Plackett–Luce log-probability of ``order`` (first out first) under the ratings (OpenSkill's
    form: strengths exp(μ / c), c = sqrt(Σ σ² + β²))."""
    mus = [ratings[name].mu for name in order]
    sigmas = [ratings[name].sigma for name in order]
    c = math.sqrt(sum(sigma**2 + BETA**2 for sigma in sigmas))
    total = 0.0
    for index in range(len(order)):
        rest = [math.exp(mu / c) for mu in mus[index:]]
        total += mus[index] / c - math.log(sum(rest))
    return total


def train(matches: Sequence[Match], per_round: bool) -> dict[str, PlackettLuceRating]:
    """Rate every player from scratch over ``matches``: once per round, or once per match."""
    rated = model()
    ratings: dict[str, PlackettLuceRating] = {name: rated.rating() for name in PLAYERS}
    for orders, totals in matches:
        if per_round:
            for order in orders:
                teams = [[ratings[name]] for name in order]
                for name, team in zip(order, rated.rate(teams, ranks=[1, 2, 3, 4]), strict=True):
                    ratings[name] = team[0]
        else:
            names = sorted(totals, key=lambda name: -totals[name])
            ranks = [1 + sum(1 for other in names if totals[other] > totals[name]) for name in names]
            teams = [[ratings[name]] for name in names]
            for name, team in zip(
                names, rated.rate(teams, ranks=[float(rank) for rank in ranks]), strict=True
            ):
                ratings[name] = team[0]
    return ratings


NEWCOMER_ROUNDS = 300
"""How many rounds a newcomer is followed for."""


def newcomer_path(name: str, orders: Sequence[tuple[str, ...]], fixed: dict[str, Skill]) -> list[Skill]:
    """Rate ``name`` from scratch, as Parlour rates a person, over its first rounds of ``orders``, the
    others at their fixed ratings; return its rating after each round."""
    skill = Skill()
    path = []
    for order in orders:
        if name not in order:
            continue
        entrants = [
            Entrant(skill, player=0) if seat == name else Entrant(fixed[seat], computer=seat)
            for seat in order
        ]
        skill = rate_round(entrants)[order.index(name)]
        path.append(skill)
        if len(path) == NEWCOMER_ROUNDS:
            break
    return path


def error_at(paths: dict[str, list[Skill]], fixed: dict[str, Skill], rounds: int) -> float:
    """Return how far the newcomers' ratings are from their fitted ones after ``rounds`` rounds, in
    shown points (the mean absolute difference over the players, each averaged over the ten rounds
    around that one: one round moves a rating a lot)."""
    errors = []
    for name, path in paths.items():
        window = path[max(0, rounds - 5) : rounds + 5]
        errors.append(statistics.fmean(abs(skill.mu - fixed[name].mu) * 60 for skill in window))
    return statistics.fmean(errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="matches at every table of four")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    matches = play(args.games, args.seed)
    random.Random(args.seed).shuffle(matches)
    cut = len(matches) * 3 // 4
    train_on, held = matches[:cut], matches[cut:]
    per_round = train(train_on, True)
    per_match = train(train_on, False)
    held_rounds = [order for orders, _ in held for order in orders]
    ll_round = statistics.fmean(log_likelihood(order, per_round) for order in held_rounds)
    ll_match = statistics.fmean(log_likelihood(order, per_match) for order in held_rounds)
    training = [order for orders, _ in train_on for order in orders]
    print(f"{len(matches)} matches ({len(training)} training rounds, {len(held_rounds)} held out), 7 players")
    print(f"held-out log-likelihood of a round: per round {ll_round:.4f}, per match {ll_match:.4f}, "
          f"uniform {math.log(1 / 24):.4f}")  # fmt: skip
    # Newcomers as Parlour rates people: the others fixed at their fit, each player in turn from scratch.
    fixed = fit_fixed(training, PLAYERS)
    paths = {name: newcomer_path(name, training, fixed) for name in PLAYERS}
    sigma = {n: statistics.fmean(path[n - 1].sigma for path in paths.values()) for n in (10, 20, 40)}
    print(
        "a newcomer's sigma after 10, 20, 40 rounds: " + ", ".join(f"{value:.2f}" for value in sigma.values())
    )
    errors = {n: error_at(paths, fixed, n) for n in (10, 20, 50, 100, 250)}
    print(
        "a newcomer's distance from its fitted rating after 10, 20, 50, 100, 250 rounds (points): "
        + ", ".join(f"{value:.0f}" for value in errors.values())
    )
    print("fitted: " + ", ".join(f"{name} {fixed[name].shown}" for name in PLAYERS))
    print(
        f"rating rounds: per-round LL {ll_round:.4f}, per-match LL {ll_match:.4f}, newcomer off by "
        f"{errors[20]:.0f} points at 20 rounds, {errors[100]:.0f} at 100, sigma@20 {sigma[20]:.2f}"
    )


if __name__ == "__main__":
    main()
