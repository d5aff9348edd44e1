"""The TriPeaks board drawn in a terminal: boxed cards where the layout puts them, and back again from a
mouse click to the card under it. Pure functions of the player's view (nothing hidden is drawn).

Each card is a box of ``CARD_WIDTH`` × ``CARD_HEIGHT`` cells; a row sits ``ROW_STEP`` lines below the one
it covers, so the lower row's top edge hides the bottom of the cards above, as on a table. The layout's
x places come from ``parlour.tripeaks.layout.SLOT_PLACES``: the board keeps its shape at any width.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rich.style import Style
from rich.text import Text

from parlour.tripeaks.layout import SLOT_PLACES, TABLEAU_SIZE
from parlour.tripeaks.views import PlayerView
from parlour.tui.cards import BACK, CURSOR, EMPTY, card_label, card_style

CARD_WIDTH: Final = 5
CARD_HEIGHT: Final = 3
COLUMN_STEP: Final = 6
"""Cells from one bottom-row card to the next."""
ROW_STEP: Final = 2
BOARD_WIDTH: Final = int(9 * COLUMN_STEP + CARD_WIDTH)
BOARD_HEIGHT: Final = 3 * ROW_STEP + CARD_HEIGHT


def corner(position: int) -> tuple[int, int]:
    """Return the (x, y) of the top-left cell of the card at ``position``."""
    x, row = SLOT_PLACES[position]
    return round(x * COLUMN_STEP), row * ROW_STEP


def paint(
    view: PlayerView,
    cursor: int | None = None,
    letters: Mapping[str, str] | None = None,
    deck: str = "two_colour",
) -> list[Text]:
    """Return the board's lines: every card still in the peaks, face-down ones as backs; ``cursor``
    (a position) is drawn reversed; ``deck`` is the player's (``four_colour``: four suit colours)."""
    cells: list[list[tuple[str, Style]]] = [[(" ", EMPTY)] * BOARD_WIDTH for _ in range(BOARD_HEIGHT)]
    free = set(view.free)
    for position in range(TABLEAU_SIZE):  # row by row, top first: lower rows cover the cards above
        slot = view.tableau[position]
        if slot.removed:
            continue
        x, y = corner(position)
        if slot.card is None:
            style, middle = BACK, "░░░"
        else:
            style, middle = card_style(slot.card, position in free, deck), card_label(slot.card, letters)
        if position == cursor:
            style = style + CURSOR
        rows = ("╭───╮", f"│{middle}│", "╰───╯")
        for dy, line in enumerate(rows):
            for dx, char in enumerate(line):
                cells[y + dy][x + dx] = (char, style)
    lines = []
    for row in cells:
        text = Text()
        for char, style in row:
            text.append(char, style)
        lines.append(text)
    return lines


def slot_at(view: PlayerView, x: int, y: int) -> int | None:
    """Return the position of the card drawn at cell (x, y), None for a gap. The last card painted
    there wins, as on screen."""
    found = None
    for position in range(TABLEAU_SIZE):
        if view.tableau[position].removed:
            continue
        left, top = corner(position)
        if left <= x < left + CARD_WIDTH and top <= y < top + CARD_HEIGHT:
            found = position
    return found
