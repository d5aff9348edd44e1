"""Pebbles in the terminal (``parlour tui`` lists it; ``parlour pebbles tui``): the pile, the score, and
keys 1-3 to take; a computer player answers."""

from __future__ import annotations

from typing import ClassVar

import click
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from parlour.errors import ParlourError

from .game import DEFINITION, PebblesMatch


class PebblesApp(App[None]):
    """One game of Pebbles against a computer player."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "take(1)", "Take 1"),
        Binding("2", "take(2)", "Take 2"),
        Binding("3", "take(3)", "Take 3"),
        Binding("c", "next_round", "Next round"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        match = DEFINITION.new({}).game
        assert isinstance(match, PebblesMatch)
        self.match = match
        self.said = ""

    def compose(self) -> ComposeResult:
        yield Static(id="board")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        while (change := self.match.auto()) is not None:  # the computer player's moves
            self.said = f"The computer takes {change.public['count']}."
        view = self.match.view(0)
        state = "over" if self.match.finished else ("round won" if view.between_rounds else "your turn")
        board = f"Pile: {view.pile}   Score: {view.scores[0]}-{view.scores[1]}   ({state})\n{self.said}"
        self.query_one("#board", Static).update(board)

    def action_take(self, count: int) -> None:
        try:
            self.match.act(0, {"type": "take", "count": count})
            self.said = ""
        except ParlourError as error:
            self.said = str(error)
        self.show()

    def action_next_round(self) -> None:
        try:
            self.match.act(0, {"type": "continue"})
        except ParlourError as error:
            self.said = str(error)
        self.show()


def open_pebbles(code: str | None, lang: str, database_url: str | None, record: bool) -> None:
    """Open Pebbles in the terminal (it has no codes and keeps no records)."""
    PebblesApp().run()


@click.group("pebbles")
def pebbles() -> None:
    """Pebbles: take the last pebble."""


@pebbles.command("tui")
def pebbles_tui() -> None:
    """Pebbles full-screen in the terminal: 1-3 take, C deals the next round, Q quits."""
    open_pebbles(None, "en", None, False)
