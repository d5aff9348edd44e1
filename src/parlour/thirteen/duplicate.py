"""Duplicate play between computer players, as bridge removes the luck of the deal
(``parlour thirteen simulate --duplicate``).

Each deal is an opening round (its first play holds 3♠), played four times with the hands rotated
among the players: in rotation ``r`` player ``i`` sits at seat ``(i + r) mod 4``, so every player plays
every hand once, against the same three other hands. A player's score on a deal is the mean of its
four round results, and its figures come from those per-deal scores: what the cards gave everybody
cancels out, and the interval on points per round narrows. The same deals played once each
(:func:`plain_rounds`, seats rotated deal by deal) give the figures without that pairing, for comparison.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.intervals import mean_margin
from parlour.thirteen.bots import Bot, make_bot
from parlour.thirteen.game import deal_hands
from parlour.thirteen.round import SEATS, Round
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.simulate import MAX_MOVES_PER_GAME, game_number
from parlour.thirteen.views import PlayerView

NO_SCORES = (0,) * SEATS


def play_round(bots: Sequence[Bot], number: int, rules: Rules = STANDARD) -> Round:
    """Play the opening round of deal ``number`` with ``bots[seat]`` at each seat (each choosing from its
    own view only); return the finished round.

    Raises:
        RuntimeError: the round did not end within ``MAX_MOVES_PER_GAME`` moves.
    """
    round_ = Round(1, deal_hands(number), None, rules, opening=True)
    for _ in range(MAX_MOVES_PER_GAME):
        seat = round_.turn
        if seat is None:
            return round_
        view = PlayerView.of_round(round_, seat, NO_SCORES, (), ())
        round_.push(bots[seat].choose(view).mask)
    raise RuntimeError(f"deal {number} did not end in {MAX_MOVES_PER_GAME} moves")


@dataclass
class DealScores:
    """One player's results, one value per deal: ``points`` (its round points, averaged over the plays of
    the deal) and ``firsts`` (its share of first places on the deal)."""

    name: str
    points: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)

    @property
    def mean_points(self) -> float:
        """Mean points per round."""
        return statistics.fmean(self.points) if self.points else 0.0

    @property
    def points_margin(self) -> float | None:
        """Half-width of the 95% interval of the mean points per round (normal, from the deals' spread);
        None with fewer than two deals."""
        return mean_margin(self.points)

    @property
    def first_share(self) -> float:
        """First places per round played."""
        return statistics.fmean(self.firsts) if self.firsts else 0.0

    @property
    def first_share_margin(self) -> float | None:
        """Half-width of the 95% interval of the share of first places (from the deals' spread); None
        with fewer than two deals."""
        return mean_margin(self.firsts)

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON."""
        return {
            "name": self.name,
            "deals": len(self.points),
            "mean_points": round(self.mean_points, 4),
            "points_margin": _rounded(self.points_margin),
            "first_share": round(self.first_share, 4),
            "first_share_margin": _rounded(self.first_share_margin),
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass
class DealRun:
    """The figures of a run over ``deals`` deals: one :class:`DealScores` per player, in the order
    given; ``rounds`` played in all (four a deal in duplicate, one otherwise)."""

    players: list[DealScores]
    deals: int
    rounds: int
    seed: int
    duplicate: bool

    def to_json(self) -> dict[str, Any]:
        """Return ``{"duplicate", "deals", "rounds", "seed", "players": [...]}``."""
        return {
            "duplicate": self.duplicate,
            "deals": self.deals,
            "rounds": self.rounds,
            "seed": self.seed,
            "players": [player.to_json() for player in self.players],
        }


def _bots(players: Sequence[str], seed: int) -> list[Bot]:
    if len(players) != SEATS:
        raise ValueError(f"Thirteen needs exactly 4 players, got {len(players)}")
    return [make_bot(name, seed * SEATS + index) for index, name in enumerate(players)]


def _play_deals(
    players: Sequence[str],
    deals: int,
    seed: int,
    rules: Rules,
    progress: Callable[[int], None] | None,
    rotations: Callable[[int], Sequence[int]],
) -> list[DealScores]:
    """Play each deal once per rotation ``r`` of ``rotations(deal)`` (player ``i`` at seat
    ``(i + r) mod 4``) and return each player's scores, a deal's being the mean of its rotations.

    Raises:
        InvalidInput: a name is not a computer player.
        ValueError: not exactly four players, or a negative number of deals.
    """
    if deals < 0:
        raise ValueError(f"the number of deals cannot be negative, got {deals}")
    bots = _bots(players, seed)
    scores = [DealScores(name) for name in players]
    for deal in range(deals):
        number = game_number(seed, deal)
        played = rotations(deal)
        points = [0.0] * SEATS
        firsts = [0.0] * SEATS
        for rotation in played:
            # Player i sits at seat (i + rotation) mod 4: the bot at seat s is player (s - rotation).
            round_ = play_round([bots[(seat - rotation) % SEATS] for seat in range(SEATS)], number, rules)
            result = round_.points()
            for index in range(SEATS):
                seat = (index + rotation) % SEATS
                points[index] += result[seat] / len(played)
                firsts[index] += (round_.finished[0] == seat) / len(played)
        for index, player in enumerate(scores):
            player.points.append(points[index])
            player.firsts.append(firsts[index])
        if progress is not None:
            progress(1)
    return scores


def simulate_duplicate(
    players: Sequence[str],
    deals: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    progress: Callable[[int], None] | None = None,
) -> DealRun:
    """Play ``deals`` deals in duplicate between four computer players named in ``players`` (each deal four
    times, the hands rotated: see the module). ``progress`` is called with 1 after each deal.

    Raises:
        InvalidInput: a name is not a computer player.
        ValueError: not exactly four players, or a negative number of deals.
    """
    scores = _play_deals(players, deals, seed, rules, progress, lambda deal: range(SEATS))
    return DealRun(scores, deals, deals * SEATS, seed, duplicate=True)


def plain_rounds(
    players: Sequence[str],
    deals: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    progress: Callable[[int], None] | None = None,
) -> DealRun:
    """Play the same deals as :func:`simulate_duplicate`, each once, player ``i`` at seat
    ``(i + deal) mod 4``: the figures without duplicate's pairing, for comparison.

    Raises:
        InvalidInput: a name is not a computer player.
        ValueError: not exactly four players, or a negative number of deals.
    """
    scores = _play_deals(players, deals, seed, rules, progress, lambda deal: (deal % SEATS,))
    return DealRun(scores, deals, deals, seed, duplicate=False)
