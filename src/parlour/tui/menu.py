"""The first screen of ``parlour tui``: choose a game (each game's key, Q to quit)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Footer, Label

from parlour.games.base import GameDefinition
from parlour.i18n import gettext_for
from parlour.tui.screens import translate_bindings


class MenuApp(App[str | None]):
    """Lists ``games`` (those with a terminal screen) and returns the chosen one's name, or None (quit)."""

    TITLE = "Parlour"
    CSS = """
    Screen { align: center middle; }
    #menu { width: 40; height: auto; padding: 1 2; border: round $primary; }
    #menu Button { width: 100%; margin-top: 1; }
    """

    def __init__(self, lang: str, games: Sequence[GameDefinition]) -> None:
        super().__init__()
        self.lang = lang
        self.games = list(games)
        for game in self.games:
            assert game.terminal is not None
            self.bind(game.terminal.key, f"choose('{game.name}')", description=game.title)
        self.bind("q", "choose('')", description="Quit")
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Label(gettext_for(self.lang, "web", "Card games"))
            for number, game in enumerate(self.games):
                title = gettext_for(self.lang, "web", game.title)
                yield Button(title, id=game.name, variant="primary" if number == 0 else "default")
        yield Footer(show_command_palette=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "")

    def action_choose(self, game: str) -> None:
        self.exit(game or None)
