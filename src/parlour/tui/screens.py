"""Screens both terminal games share: the player's statistics (the same figures as ``parlour stats`` and
the web's statistics page) and the keys."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from parlour.cli.stats import statistics_table
from parlour.tui.records import Recorder

LIGHT = "textual-light"
DARK = "textual-dark"
"""Textual's own themes: no true colour needed, readable in tmux and over SSH."""


def statistics_renderable(recorder: Recorder | None) -> RenderableType:
    """Return the terminal player's statistics, one table per game, or a line saying none are kept."""
    if recorder is None:
        return Text("Nothing is recorded in this session (--no-record).")
    figures = recorder.store.statistics(recorder.player_id)
    tables: list[Table] = []
    for definition in recorder.store.games:
        if definition.name in figures.games:
            for table in definition.statistics_tables(figures[definition.name], "this terminal"):
                tables.append(statistics_table(table))
    return Group(*tables)


class StatisticsScreen(ModalScreen[None]):
    """The player's statistics; Escape or S closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("s", "dismiss", "Close", show=False),
    ]

    def __init__(self, recorder: Recorder | None) -> None:
        super().__init__()
        self.recorder = recorder

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="statistics"):
            yield Static(statistics_renderable(self.recorder))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
