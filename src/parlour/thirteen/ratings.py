"""A rating table of the Thirteen computer players, from a round-robin of mixed tables.

Every choice of four of the players sits at a table for the same number of whole games, with seats
rotated as ``parlour thirteen simulate`` rotates them. Each round's finishing order is read as six
duels: each player beat every player who finished after them. A Bradley–Terry model is fitted to the
duels: player ``i`` beats ``j`` with probability ``s_i / (s_i + s_j)``. The fit uses the
minorization–maximization iteration of Hunter (2004). Strengths are shown on the Elo scale,
``400 · log10(s)``, shifted so that the weakest player is 0. A rating difference of 200 then means the
stronger player finishes ahead about 76% of the time. The 95% intervals come from resampling the
rounds (a bootstrap), since the six duels of one round are not independent.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from parlour.thirteen.bots import make_bot
from parlour.thirteen.round import SEATS
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.simulate import play_rotated

ITERATIONS: Final = 500
TOLERANCE: Final = 1e-10
RESAMPLES: Final = 200
Order = tuple[str, ...]
"""One round's finishing order, by player name, first out first."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's ``rating`` (Elo scale, the weakest at 0) with its 95% interval ``low`` – ``high``,
    and the ``rounds`` it played."""

    name: str
    rating: float
    low: float
    high: float
    rounds: int

    def to_json(self) -> dict[str, Any]:
        """Return the rating as JSON (rounded to a tenth of a point)."""
        return {
            "name": self.name,
            "rating": round(self.rating, 1),
            "interval": [round(self.low, 1), round(self.high, 1)],
            "rounds": self.rounds,
        }


def round_robin(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    progress: Callable[[int], None] | None = None,
) -> list[Order]:
    """Play ``games`` whole games at every table of four of ``players`` and return every round's order.

    ``progress`` is called with 1 after each game.

    Raises:
        InvalidInput: a name is not a computer player.
        ValueError: fewer than four players, a name given twice, or a negative number of games.
    """
    if len(players) < SEATS or len(set(players)) != len(players):
        raise ValueError(f"a round-robin needs at least {SEATS} different players, got {list(players)}")
    if games < 0:
        raise ValueError(f"the number of games cannot be negative, got {games}")
    orders: list[Order] = []
    for table, names in enumerate(itertools.combinations(players, SEATS)):
        bots = [make_bot(name, (seed * 64 + table) * SEATS + index) for index, name in enumerate(names)]
        for game in range(games):
            match, at_seat = play_rotated(bots, seed * 64 + table, game, rules)
            orders.extend(tuple(names[at_seat[seat]] for seat in result.order) for result in match.results)
            if progress is not None:
                progress(1)
    return orders


def fit(orders: Sequence[Order], players: Sequence[str]) -> dict[str, float]:
    """Return each player's Bradley–Terry strength fitted to the duels of ``orders`` (see the module
    docstring), scaled so that the strengths multiply to 1.

    Raises:
        ValueError: a player never played, or won no duel or lost none (its strength would be 0 or
            infinite: play more games).
    """
    index = {name: n for n, name in enumerate(players)}
    count = len(players)
    wins = [0.0] * count
    duels = [[0.0] * count for _ in range(count)]
    for order in orders:
        for a, b in itertools.combinations(order, 2):  # a finished before b
            i, j = index[a], index[b]
            wins[i] += 1
            duels[i][j] += 1
            duels[j][i] += 1
    for n, name in enumerate(players):
        lost = sum(duels[n]) - wins[n]
        if wins[n] == 0 or lost == 0:
            raise ValueError(f"{name} won {wins[n]:.0f} duels and lost {lost:.0f}: play more games")
    strength = [1.0] * count
    for _ in range(ITERATIONS):
        updated = [
            wins[i] / sum(duels[i][j] / (strength[i] + strength[j]) for j in range(count) if duels[i][j])
            for i in range(count)
        ]
        scale = math.exp(sum(math.log(value) for value in updated) / count)
        updated = [value / scale for value in updated]
        change = max(abs(a - b) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < TOLERANCE:
            break
    return dict(zip(players, strength, strict=True))


def elo(strengths: dict[str, float]) -> dict[str, float]:
    """Return the strengths on the Elo scale, the weakest player at 0."""
    points = {name: 400 * math.log10(value) for name, value in strengths.items()}
    lowest = min(points.values())
    return {name: value - lowest for name, value in points.items()}


def ratings(
    orders: Sequence[Order], players: Sequence[str], resamples: int = RESAMPLES, seed: int = 0
) -> list[Rating]:
    """Return the rating table, strongest first, with bootstrap intervals over ``resamples`` resamplings
    of the rounds (seeded).

    Raises:
        ValueError: as :func:`fit`, for the rounds as played.
    """
    point = elo(fit(orders, players))
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {name: [] for name in players}
    for _ in range(resamples):
        drawn = [orders[rng.randrange(len(orders))] for _ in orders]
        try:
            again = elo(fit(drawn, players))
        except ValueError:
            continue  # a resample in which someone never won or never lost: no finite rating
        for name in players:
            samples[name].append(again[name])
    rounds = {name: sum(name in order for order in orders) for name in players}
    table = []
    for name in players:
        spread = sorted(samples[name])
        if spread:
            low, high = (
                spread[int(0.025 * len(spread))],
                spread[min(len(spread) - 1, int(0.975 * len(spread)))],
            )
        else:
            low = high = point[name]
        table.append(Rating(name, point[name], low, high, rounds[name]))
    return sorted(table, key=lambda rating: -rating.rating)
