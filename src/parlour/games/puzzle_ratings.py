"""Puzzle ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) for players and puzzles,
as lichess rates its puzzles: each attempt is a game between the player and the puzzle, the player
winning when they find the answer, and both are updated after it (a rating period of one game).

Written from the paper's steps rather than taken from the ``glicko2`` package: its volatility step
reads the rating (μ²) where the paper's function f has the deviation (φ²), so its volatilities, and
through them its ratings, drift a little from the paper's. ``tests/games/test_puzzle_ratings.py``
checks the paper's worked example exactly and stays within a twentieth of a point of the package
(decision 0065).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""Glicko-2's scale: rating 1500 + 173.7178 μ, deviation 173.7178 φ."""
TAU: Final = 0.5
"""The system constant τ: how much the volatility may change (the paper suggests 0.3 to 1.2)."""
EPSILON: Final = 0.000001
"""The convergence tolerance of the volatility's iteration."""
START_RD: Final = 350.0
START_VOLATILITY: Final = 0.06
MIN_RD: Final = 45.0
"""The deviation never goes below this (lichess keeps ratings able to move)."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating ``rating`` ± ``rd`` (deviation) with its ``volatility``."""

    rating: float = 1500.0
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the rating is still unsure (a deviation over 110, as lichess marks it with a ?)."""
        return self.rd > 110


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, opponents: list[tuple[Glicko, float]], *, tau: float = TAU) -> Glicko:
    """Return ``player``'s rating after one rating period against ``opponents`` (each a rating and a
    score: 1 a win, 0 a loss, 0.5 a draw). With no games the deviation only grows (step 6)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not opponents:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, min(START_RD, grown * SCALE), sigma)
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    inverse_v = 0.0
    total = 0.0
    for opponent, score in opponents:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        expected = _expected(mu, mu_j, phi_j)
        inverse_v += _g(phi_j) ** 2 * expected * (1.0 - expected)
        total += _g(phi_j) * (score - expected)
    v = 1.0 / inverse_v
    delta = v * total
    # Step 5: the new volatility, by the Illinois algorithm on f.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 to 8: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Glicko(1500.0 + SCALE * new_mu, SCALE * new_phi, new_sigma)


def attempt(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """Return the player's and the puzzle's ratings after one attempt (``solved``: the player won),
    each updated against the other's rating before it, deviations kept at :data:`MIN_RD` or more."""
    after_player = update(player, [(puzzle, 1.0 if solved else 0.0)])
    after_puzzle = update(puzzle, [(player, 0.0 if solved else 1.0)])
    return _floored(after_player), _floored(after_puzzle)


def _floored(rating: Glicko) -> Glicko:
    return Glicko(rating.rating, max(MIN_RD, rating.rd), rating.volatility)
