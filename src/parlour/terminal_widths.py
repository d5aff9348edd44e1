"""Cell widths as terminals count them, for Rich and Textual (decision 0045).

Rich gives a spacing vowel sign of Devanagari (a *spacing combining mark*, category Mc: ``ा``, ``ि``,
``ी`` …) no cell, but terminals give it one: glibc's ``wcwidth``, which tmux, screen and most terminal
emulators follow, makes only non-spacing and enclosing marks (Mn, Me) and format characters zero wide.
Measured Rich's way, a Hindi line is drawn longer than it was laid out: Textual cuts its last vowel sign
("नई बाज़" for "नई बाज़ी"), and text runs past the border of its box.

:func:`use_terminal_widths` makes Rich's tables of widths give every spacing mark one cell, once per
process, before anything is drawn. Everything Rich and Textual measure goes through those tables.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import rich.cells

_original_load: Callable[[str], Any] | None = None


def terminal_widths(widths: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Return Rich's ``(first, last, cells)`` ranges with each spacing mark (Mc) inside a zero-width
    range given one cell, as ``wcwidth`` gives it; every other width is kept."""
    fixed: list[tuple[int, int, int]] = []
    for first, last, cells in widths:
        if cells != 0:
            fixed.append((first, last, cells))
            continue
        start = first
        for codepoint in range(first, last + 1):
            spacing = unicodedata.category(chr(codepoint)) == "Mc"
            previous = start <= codepoint - 1
            if spacing:
                if previous:
                    fixed.append((start, codepoint - 1, 0))
                fixed.append((codepoint, codepoint, 1))
                start = codepoint + 1
        if start <= last:
            fixed.append((start, last, 0))
    return fixed


@cache
def _load(unicode_version: str = "auto") -> Any:
    assert _original_load is not None
    table = _original_load(unicode_version)
    return table._replace(widths=terminal_widths(table.widths))


def use_terminal_widths() -> None:
    """Make Rich (and so Textual) measure text as terminals draw it; calling it again does nothing."""
    global _original_load
    if _original_load is not None:
        return
    _original_load = getattr(rich.cells, "load_cell_table")  # noqa: B009  (not in Rich's public names)
    setattr(rich.cells, "load_cell_table", _load)  # noqa: B010  (where Rich's measures look it up)
    # Widths measured before now were Rich's own.
    rich.cells.get_character_cell_size.cache_clear()
    rich.cells.cached_cell_len.cache_clear()
