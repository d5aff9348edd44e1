"""Whole games between computer players, for measuring their strength (``parlour thirteen simulate``).

Game g of a run deals match number ``game_number(seed, g)`` and seats player i at seat (i + g) mod 4, so
every player sits at every seat equally often. Each bot gets its own seed derived from the run's seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.deal import DEAL_NUMBER_LIMIT, SplitMix64
from parlour.intervals import wilson
from parlour.thirteen.bots import Bot, make_bot
from parlour.thirteen.game import Match
from parlour.thirteen.round import SEATS
from parlour.thirteen.rules import STANDARD, Rules

MAX_MOVES_PER_GAME = 100_000
"""A safety net: no game between legal players comes near it (each move removes a card or passes)."""


def game_number(seed: int, game: int) -> int:
    """Return the match number dealt in game ``game`` (from 0) of a run with this seed."""
    return SplitMix64((seed << 24) ^ game ^ 0x5EED_7413).uniform(DEAL_NUMBER_LIMIT)


def play_match(bots: Sequence[Bot], number: int, rules: Rules = STANDARD) -> Match:
    """Play match ``number`` to its end with ``bots[seat]`` at each seat; return the finished match.

    Raises:
        RuntimeError: the match did not end within ``MAX_MOVES_PER_GAME`` moves.
    """
    match = Match(number, rules)
    for _ in range(MAX_MOVES_PER_GAME):
        seat = match.turn
        if seat is None:
            return match
        match.push(bots[seat].choose(match.view(seat)))
    raise RuntimeError(f"match {match.code} did not end in {MAX_MOVES_PER_GAME} moves")


@dataclass
class PlayerStats:
    """One player's results over a run."""

    name: str
    rounds: int = 0
    firsts: int = 0
    points: int = 0
    games: int = 0
    games_won: int = 0

    @property
    def first_share(self) -> float:
        """First places per round played."""
        return self.firsts / self.rounds if self.rounds else 0.0

    @property
    def first_share_margin(self) -> float:
        """Half-width of the 95% Wilson interval of ``first_share`` (see ``first_share_interval``)."""
        low, high = self.first_share_interval
        return (high - low) / 2

    @property
    def first_share_interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the share of first places: honest for few rounds and for
        shares near 0 or 1, where the normal approximation gives "0.0% ± 0.0%"."""
        return wilson(self.firsts, self.rounds)

    @property
    def mean_points(self) -> float:
        """Mean points per round."""
        return self.points / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON."""
        return {
            "name": self.name,
            "rounds": self.rounds,
            "first_places": self.firsts,
            "first_share": round(self.first_share, 4),
            "first_share_margin": round(self.first_share_margin, 4),
            "first_share_interval": [round(bound, 4) for bound in self.first_share_interval],
            "mean_points": round(self.mean_points, 4),
            "games": self.games,
            "games_won": self.games_won,
        }


@dataclass
class SimulationResult:
    """The figures of a run: one ``PlayerStats`` per player, in the order the players were given."""

    players: list[PlayerStats]
    games: int
    rounds: int
    seed: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"games": …, "rounds": …, "seed": …, "players": [PlayerStats.to_json(), …]}``."""
        return {
            "games": self.games,
            "rounds": self.rounds,
            "seed": self.seed,
            "players": [player.to_json() for player in self.players],
        }


def play_rotated(
    bots: Sequence[Bot], seed: int, game: int, rules: Rules = STANDARD
) -> tuple[Match, list[int]]:
    """Play game ``game`` (from 0) of a run with this seed: match ``game_number(seed, game)`` with player
    ``i`` of ``bots`` at seat ``(i + game) mod 4``. Return the finished match and, for each seat, the
    index of the player who sat there.

    Raises:
        RuntimeError: the match did not end (see ``play_match``).
    """
    shift = game % SEATS
    at_seat = [(seat - shift) % SEATS for seat in range(SEATS)]
    return play_match([bots[index] for index in at_seat], game_number(seed, game), rules), at_seat


def simulate(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` whole games between four computer players named in ``players``.

    ``progress`` is called with 1 after each game (for a progress bar).

    Raises:
        InvalidInput: a name is not a computer player.
        ValueError: not exactly four players, or a negative number of games.
    """
    if len(players) != SEATS:
        raise ValueError(f"Thirteen needs exactly 4 players, got {len(players)}")
    if games < 0:
        raise ValueError(f"the number of games cannot be negative, got {games}")
    stats = [PlayerStats(name) for name in players]
    bots = [make_bot(name, seed * SEATS + index) for index, name in enumerate(players)]
    rounds = 0
    for game in range(games):
        match, at_seat = play_rotated(bots, seed, game, rules)
        rounds += len(match.results)
        for index, player in enumerate(stats):
            seat = at_seat.index(index)
            player.games += 1
            player.games_won += seat in match.winners
            for result in match.results:
                player.rounds += 1
                player.points += result.points[seat]
                player.firsts += result.order[0] == seat
        if progress is not None:
            progress(1)
    return SimulationResult(stats, games, rounds, seed)
