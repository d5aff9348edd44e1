"""Summary figures shared by the benchmark scripts (imported as a sibling module when a script runs)."""

from __future__ import annotations


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` (0-1) of ``values`` lie, nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
