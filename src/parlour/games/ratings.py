"""Ratings for people at seated games: OpenSkill's Plackett–Luce model, one update per rated round.

A rated round is a full finishing order of the table's seats (first out first). Each seat is one
"team" of one; people's ratings move, the computer players take part with their fixed ratings (their
updates are computed and thrown away), so that every person's rating is on the scale the computer
players were fitted on (decision 0062). Anyone can recompute the ratings from ``parlour ratings export
--json`` with the ``openskill`` package and :data:`MODEL_SETTINGS`.

A rating is shown as ``1500 + 60 × (μ − 25)`` (:func:`shown`), with ± 2σ on the same scale, and is
*provisional* until σ falls below :data:`PROVISIONAL_SIGMA`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

MU: Final = 25.0
SIGMA: Final = 25.0 / 3
BETA: Final = 25.0 / 6
TAU: Final = 25.0 / 300
KAPPA: Final = 0.0001
MODEL_SETTINGS: Final[Mapping[str, Any]] = {
    "model": "PlackettLuce",
    "package": "openskill",
    "mu": MU,
    "sigma": SIGMA,
    "beta": BETA,
    "tau": TAU,
    "kappa": KAPPA,
    "limit_sigma": False,
    "balance": False,
    "ranks": "1 for the first seat out, 2 for the next …; no ties",
    "computer_players": "take part with their fixed mu and sigma; their updates are thrown away",
}
"""The model and its settings, as the export prints them (OpenSkill's defaults)."""
SHOWN_BASE: Final = 1500
SHOWN_SCALE: Final = 60
PROVISIONAL_SIGMA: Final = 4.0
"""A rating is provisional while its σ is above this: from 8.33 at the start to 4.06 after 20 rounds
among fixed computer players (``benchmarks/rating_rounds.py``, where a newcomer is then still about
260 points from where it settles, and about 100 after 100 rounds)."""


def model() -> PlackettLuce:
    """Return the model with :data:`MODEL_SETTINGS`."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA, limit_sigma=False, balance=False)


@dataclass(frozen=True, slots=True)
class Skill:
    """One rating: the model's mean ``mu`` and uncertainty ``sigma``, and the rated ``rounds`` behind it."""

    mu: float = MU
    sigma: float = SIGMA
    rounds: int = 0

    @property
    def shown(self) -> int:
        """The rating as people read it (1,500 for a newcomer)."""
        return shown(self.mu)

    @property
    def spread(self) -> int:
        """Two σ on the shown scale: the rating is ``shown ± spread`` with about 95% confidence."""
        return round(2 * SHOWN_SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        """True while too few rounds back the rating (σ above :data:`PROVISIONAL_SIGMA`)."""
        return self.sigma > PROVISIONAL_SIGMA

    def to_json(self) -> dict[str, Any]:
        """Return ``{"rating", "spread", "provisional", "mu", "sigma", "rounds"}``."""
        return {
            "rating": self.shown,
            "spread": self.spread,
            "provisional": self.provisional,
            "mu": self.mu,
            "sigma": self.sigma,
            "rounds": self.rounds,
        }


def shown(mu: float) -> int:
    """Return ``1500 + 60 × (mu − 25)``, rounded: the rating people read."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - MU))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a rated round: a person (``player``) with their rating before the round, or a
    computer player (``computer``: its strength) with its fixed rating."""

    skill: Skill
    player: int | None = None
    computer: str | None = None


def rate_round(order: Sequence[Entrant]) -> list[Skill]:
    """Return every entrant's rating after a round finished in ``order`` (first out first).

    A computer player's rating comes back unchanged (its fixed rating); a person's is the model's
    update with one round more.

    Raises:
        ValueError: fewer than two entrants.
    """
    if len(order) < 2:
        raise ValueError("a rated round needs at least two seats")
    rated = model()
    teams = [[rated.rating(mu=entrant.skill.mu, sigma=entrant.skill.sigma)] for entrant in order]
    updated = rated.rate(teams, ranks=[float(place) for place in range(1, len(order) + 1)])
    after = []
    for entrant, team in zip(order, updated, strict=True):
        if entrant.computer is not None:
            after.append(entrant.skill)
        else:
            after.append(Skill(team[0].mu, team[0].sigma, entrant.skill.rounds + 1))
    return after


def closest(skill: Skill, computers: Mapping[str, Skill]) -> str | None:
    """Return the computer player whose rating is nearest ``skill``'s (None without any)."""
    if not computers:
        return None
    return min(computers, key=lambda name: (abs(computers[name].mu - skill.mu), name))


def fit_fixed(orders: Sequence[Sequence[str]], players: Sequence[str], passes: int = 1) -> dict[str, Skill]:
    """Fit fixed ratings to rounds of computer players only (``orders``: each round's finishing order by
    name), every seat updating, without drift (τ = 0).

    One pass over the rounds in order is the model's own sequential estimate; more ``passes`` start
    each from the means of the one before (with σ reset), which counts the rounds again: only for
    runs too short to settle. σ is that of the last pass (small after a few thousand rounds).

    Raises:
        ValueError: a name in ``orders`` that is not among ``players``, or no rounds.
    """
    if not orders:
        raise ValueError("no rounds to fit")
    known = set(players)
    for order in orders:
        for name in order:
            if name not in known:
                raise ValueError(f"{name!r} is not among the players {list(players)}")
    rated = PlackettLuce(
        mu=MU, sigma=SIGMA, beta=BETA, tau=0.0, kappa=KAPPA, limit_sigma=False, balance=False
    )
    means = {name: MU for name in players}
    counts = {name: sum(name in order for order in orders) for name in players}
    skills: dict[str, Any] = {}
    for _ in range(max(1, passes)):
        skills = {name: rated.rating(mu=means[name], sigma=SIGMA) for name in players}
        for order in orders:
            teams = [[skills[name]] for name in order]
            for name, team in zip(
                order, rated.rate(teams, ranks=list(range(1, len(order) + 1))), strict=True
            ):
                skills[name] = team[0]
        means = {name: skills[name].mu for name in players}
    # Centre the fit on the model's start: only differences mean anything.
    shift = MU - sum(means.values()) / len(means)
    return {
        name: Skill(means[name] + shift, float(skills[name].sigma), counts[name])
        for name in players
        if math.isfinite(means[name])
    }


def computer_ratings_json(fixed: Mapping[str, Skill], *, how: str, games: int, seed: int) -> str:
    """Return fixed ratings as the data file a game ships them in (sorted, readable JSON), saying
    ``how`` they were made (the command)."""
    data = {
        "how": how,
        "games": games,
        "seed": seed,
        "players": {
            name: {"mu": round(skill.mu, 6), "sigma": round(skill.sigma, 6), "rounds": skill.rounds}
            for name, skill in sorted(fixed.items())
        },
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def read_computer_ratings(text: str) -> dict[str, Skill]:
    """Return the fixed ratings of a data file written by :func:`computer_ratings_json`.

    Raises:
        ValueError: the text is not such a file.
    """
    try:
        players = json.loads(text)["players"]
        return {
            str(name): Skill(float(entry["mu"]), float(entry["sigma"]), int(entry["rounds"]))
            for name, entry in players.items()
        }
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a file of computer players' ratings: {error}") from error
