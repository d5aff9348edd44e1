"""Grades of a player's decision by what it lost against the best one, as lichess grades chess moves
(inaccuracy, mistake, blunder): shared by the reviews of every game, each with its own thresholds."""

from __future__ import annotations

from collections.abc import Sequence

BEST = "best"
GOOD = "good"


def grade(lost: float, thresholds: Sequence[tuple[float, str]], *, matched: bool) -> str:
    """Return the grade of a decision that lost ``lost`` (chance, points …) against the best one:
    ``best`` when it was the best one (``matched``), else the name of the first of ``thresholds``
    (largest first) that ``lost`` reaches, else ``good``."""
    if matched:
        return BEST
    # A hair below a threshold is a rounding of it (estimates are sums of whole samples).
    return next((name for threshold, name in thresholds if lost >= threshold - 1e-12), GOOD)


def names(thresholds: Sequence[tuple[float, str]]) -> tuple[str, ...]:
    """Return every grade's name, the best first."""
    return (BEST, GOOD, *(name for _threshold, name in reversed(thresholds)))
