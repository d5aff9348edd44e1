"""The first screen of ``parlour tui``: choose a game (T for TriPeaks, H for Thirteen, Q to quit)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Footer, Label

from parlour.i18n import gettext_for
from parlour.tui.screens import translate_bindings


class MenuApp(App[str | None]):
    """Returns ``tripeaks``, ``thirteen`` or None (quit)."""

    TITLE = "Parlour"
    CSS = """
    Screen { align: center middle; }
    #menu { width: 40; height: auto; padding: 1 2; border: round $primary; }
    #menu Button { width: 100%; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "choose('tripeaks')", "TriPeaks"),
        Binding("h", "choose('thirteen')", "Thirteen"),
        Binding("q", "choose('')", "Quit"),
    ]

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Label(gettext_for(self.lang, "web", "Card games"))
            yield Button("TriPeaks", id="tripeaks", variant="primary")
            yield Button(gettext_for(self.lang, "web", "Thirteen"), id="thirteen")
        yield Footer(show_command_palette=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "")

    def action_choose(self, game: str) -> None:
        self.exit(game or None)
