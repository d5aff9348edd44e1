"""A game's statistics table (its definition's :class:`~parlour.games.base.StatisticsTable`) for Rich, as
the terminal app's statistics screen and ``parlour stats`` show it."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table

from parlour.games.base import StatisticsTable


def statistics_table(table: StatisticsTable) -> RenderableType:
    """Return a game's statistics table (from its definition) for Rich: one row per rule set, or, where
    the window is too narrow for every column's heading, one row per figure instead."""
    return _FittedTable(table)


class _FittedTable:
    """A statistics table laid out when its width is known: as given while every heading fits on one
    line, turned on its side (figures down, rule sets across) in a narrower window."""

    def __init__(self, table: StatisticsTable) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = self._as_given()
        unbounded = options.update_width(1_000_000)  # Measurement.get clamps to the width it is given
        needed = Measurement.get(console, unbounded, wide).maximum
        if needed <= options.max_width or not self.table.labelled:
            yield wide
        else:
            yield self._on_its_side()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._as_given()).clamp(max_width=options.max_width)

    def _as_given(self) -> Table:
        rich = Table(title=self.table.title)
        for index, heading in enumerate(self.table.headings):
            left = index == 0 and self.table.labelled
            rich.add_column(heading, justify="left" if left else "right", no_wrap=True)
        for row in self.table.rows:
            rich.add_row(*row)
        return rich

    def _on_its_side(self) -> Table:
        rich = Table(title=self.table.title)
        rich.add_column(self.table.headings[0], justify="left")
        for row in self.table.rows:
            rich.add_column(row[0], justify="right", no_wrap=True)
        for index, heading in enumerate(self.table.headings[1:], start=1):
            rich.add_row(heading, *(row[index] for row in self.table.rows))
        return rich
