"""Confidence intervals for the shares Parlour measures (wins, first places, hint chances)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Final

Z95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of a share ``successes / trials`` (95% by
    default); ``(0, 1)`` without trials. Unlike "share ± 2 standard errors" it never reaches below 0 or
    above 1, and says something for a share of 0 or 1."""
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_margin(values: Sequence[float], z: float = Z95) -> float | None:
    """Return the half-width of the normal interval (95% by default) of the mean of ``values``, from their
    spread; None for fewer than two values, which say nothing of it."""
    if len(values) < 2:
        return None
    return z * statistics.stdev(values) / math.sqrt(len(values))
