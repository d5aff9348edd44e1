"""The 28 positions of the TriPeaks tableau as explicit data: rows, covering and peaks.

Positions are numbered row by row, top row first, left to right: row 1 = 0..2 (the peak tops),
row 2 = 3..8, row 3 = 9..17, row 4 = 18..27 (the bottom row, face up at the start).
"""

from __future__ import annotations

from typing import Final

TABLEAU_SIZE: Final = 28

ROWS: Final[tuple[tuple[int, ...], ...]] = (
    tuple(range(0, 3)),
    tuple(range(3, 9)),
    tuple(range(9, 18)),
    tuple(range(18, 28)),
)
"""The four rows, top first; each row's positions left to right."""

BOTTOM_ROW: Final = ROWS[3]


def _covered_by() -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = []
    for t in range(3):  # a peak top is covered by two row-2 cards
        table.append((3 + 2 * t, 4 + 2 * t))
    for k in range(6):  # row 2 card k sits on row-3 cards a, a+1 with a = k + k // 2
        a = k + k // 2
        table.append((9 + a, 10 + a))
    for j in range(9):  # row 3 card j is covered by bottom cards j and j+1
        table.append((18 + j, 19 + j))
    table.extend(() for _ in BOTTOM_ROW)
    return tuple(table)


COVERED_BY: Final[tuple[tuple[int, ...], ...]] = _covered_by()
"""``COVERED_BY[p]``: the positions whose cards cover position ``p`` (empty for the bottom row)."""

COVERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(q for q in range(TABLEAU_SIZE) if p in COVERED_BY[q]) for p in range(TABLEAU_SIZE)
)
"""``COVERS[p]``: the positions that the card at ``p`` covers (empty for the peak tops)."""

PEAKS: Final[tuple[tuple[int, ...], ...]] = (
    (0, 3, 4, 9, 10, 11, 18, 19, 20),
    (1, 5, 6, 12, 13, 14, 21, 22, 23),
    (2, 7, 8, 15, 16, 17, 24, 25, 26, 27),
)
"""The left, middle and right peak (9, 9 and 10 cards), for the bonus of an emptied peak."""

PEAK_OF: Final[tuple[int, ...]] = tuple(
    next(i for i, peak in enumerate(PEAKS) if p in peak) for p in range(TABLEAU_SIZE)
)
"""``PEAK_OF[p]``: 0, 1 or 2, the peak that position ``p`` belongs to."""

ROW_OF: Final[tuple[int, ...]] = tuple(
    next(i for i, row in enumerate(ROWS) if p in row) for p in range(TABLEAU_SIZE)
)
"""``ROW_OF[p]``: 0 (the peak tops) … 3 (the bottom row)."""


def _slot_places() -> tuple[tuple[float, int], ...]:
    """Each position's (x, row): the bottom row at x = 0 … 9, every other card centred over the two
    cards that cover it (so the picture follows from the covering alone)."""
    xs: dict[int, float] = {p: float(i) for i, p in enumerate(BOTTOM_ROW)}
    for row in reversed(ROWS[:-1]):
        for p in row:
            xs[p] = sum(xs[q] for q in COVERED_BY[p]) / len(COVERED_BY[p])
    return tuple((xs[p], ROW_OF[p]) for p in range(TABLEAU_SIZE))


SLOT_PLACES: Final[tuple[tuple[float, int], ...]] = _slot_places()
"""``SLOT_PLACES[p]``: (x in card widths from the left edge of the bottom row, row 0 … 3) of position
``p``, for drawing the layout (the web page, the rules pages, the command line)."""
