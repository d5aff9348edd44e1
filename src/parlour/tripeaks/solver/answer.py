"""The raw answer of the solver's cores (the compiled core, the twin's search and the sweep)."""

from __future__ import annotations

from typing import NamedTuple


class CoreAnswer(NamedTuple):
    """The raw answer of a core; moves are positions 0–27, or -1 for a draw.

    ``winnable`` is True when a win was found (always one with the fewest draws) and ``line`` is that
    win (None without one). ``best_removed`` and ``best_line`` are the best result found: the most
    cards removed, then the fewest moves (``best_line`` is None when ``winnable_only`` left it out).
    ``nodes`` counts the states the search visited, or the sets the sweep reached; ``proved`` is False
    when the node limit stopped either.
    """

    winnable: bool
    line: list[int] | None
    best_removed: int
    best_line: list[int] | None
    nodes: int
    proved: bool
