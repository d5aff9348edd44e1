"""Pebbles in the terminal (``parlour tui`` lists it; ``parlour pebbles tui``): the pile, the score, and
keys 1-3 to take; a computer player answers. Its words come from Pebbles' own catalog, in the language
chosen (``--lang``, as every terminal game)."""

from __future__ import annotations

from typing import ClassVar

import click
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from parlour.errors import ParlourError
from parlour.i18n import gettext_for
from parlour.tui.screens import translate_bindings

from .game import DEFINITION, PebblesMatch

DOMAIN = "pebbles"


class PebblesApp(App[None]):
    """One game of Pebbles against a computer player."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "take(1)", "Take 1"),
        Binding("2", "take(2)", "Take 2"),
        Binding("3", "take(3)", "Take 3"),
        Binding("c", "next_round", "Next round"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        translate_bindings(self, lang)  # the keys' names: the terminal's catalog, then Pebbles' own
        match = DEFINITION.new({}).game
        assert isinstance(match, PebblesMatch)
        self.match = match
        self.said = ""

    def compose(self) -> ComposeResult:
        yield Static(id="board")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def t(self, message: str) -> str:
        """Return one of Pebbles' texts in the screen's language."""
        return gettext_for(self.lang, DOMAIN, message)

    def show(self) -> None:
        while (change := self.match.auto()) is not None:  # the computer player's moves
            self.said = self.t("The computer took {count}.").format(count=change.public["count"])
        view = self.match.view(0)
        if self.match.finished:
            state = self.t(
                "You win the game!" if view.scores[0] > view.scores[1] else "The computer wins the game."
            )
        elif view.between_rounds:
            state = self.t("The round is over: C deals the next one.")
        else:
            state = self.t("Your turn: take 1, 2 or 3 pebbles.")
        pile = self.t("{n} pebbles left").format(n=view.pile)
        score = self.t("You {mine}, the computer {theirs}").format(mine=view.scores[0], theirs=view.scores[1])
        board = f"{pile}   {score}\n{state}\n{self.said}"
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
    """Open Pebbles in the terminal in ``lang`` (it has no codes and keeps no records)."""
    PebblesApp(lang).run()


@click.group("pebbles")
def pebbles() -> None:
    """Pebbles: take the last pebble."""


@pebbles.command("tui")
@click.option("--lang", default="en", show_default=True, help="The screen's language (en, hi, hu, fr).")
def pebbles_tui(lang: str) -> None:
    """Pebbles full-screen in the terminal: 1-3 take, C deals the next round, Q quits."""
    open_pebbles(None, lang, None, False)
