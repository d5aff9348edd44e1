"""Screens both terminal games share: the player's statistics (the same figures as ``parlour stats`` and
the web's statistics page) and the keys."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import ClassVar, Final

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.theme import Theme
from textual.widgets import Footer, Static

from parlour.games.base import GameDefinition
from parlour.i18n import gettext_for
from parlour.tui.records import TerminalRecorder
from parlour.tui.statistics_tables import statistics_table

DOMAIN: Final = "terminal"
"""The catalog of the terminal's own texts: key names, the keys on the help screen, statistics labels."""
LIGHT = "textual-light"
DARK = "textual-dark"
"""Textual's own themes: no true colour needed, readable in tmux and over SSH."""
HIGH_CONTRAST: Final = Theme(
    name="parlour-high-contrast",
    primary="#ffe14d",
    secondary="#ffffff",
    warning="#ffe14d",
    error="#ff6b6b",
    success="#7dff7d",
    accent="#ffe14d",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    dark=True,
    text_alpha=1.0,
)
"""The high-contrast theme (the player's ``theme`` preference, as on the web): white on black, yellow
for what is chosen, nothing faint."""
THEMES: Final = (LIGHT, DARK, HIGH_CONTRAST.name)
"""The themes the T key goes through, in turn."""


RULES_TEXT: Final = re.compile(r'<(h2|h3|p|li)[^>]*>\s*\{\{ t\("((?:[^"\\]|\\.)*)"\) \}\}')
"""A heading or a paragraph of a rules page template whose whole text is one ``rules`` message."""


def terminal_text(lang: str, message: str) -> str:
    """Return one of the terminal's own texts in ``lang``."""
    return gettext_for(lang, DOMAIN, message)


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Give ``node``'s keys their names in ``lang``, as the footer shows them.

    Textual copies a class's ``BINDINGS`` into each node when the node is made, and the footer reads the
    descriptions from that copy. The class lists keep the English names (the catalog's msgids); each
    app or screen replaces its own copy with translated names once, before it is mounted.
    """
    bindings = node._bindings
    bindings.key_to_bindings = {
        key: [replace(binding, description=terminal_text(lang, binding.description)) for binding in group]
        for key, group in bindings.key_to_bindings.items()
    }


def rules_renderable(definition: GameDefinition, lang: str) -> RenderableType:
    """Return the rules of a game as on its rules page, in ``lang``: its rules page's template and
    catalog (TriPeaks': the seeds' own words in Hindi and Hungarian), headings and paragraphs; nothing
    for a game without a rules page."""
    rules, templates = definition.rules, definition.assets("templates")
    if rules is None or templates is None:
        return Group()
    template = (templates / rules.template).read_text(encoding="utf-8")
    parts: list[RenderableType] = []
    for tag, message in RULES_TEXT.findall(template):
        text = gettext_for(lang, rules.domain, message.replace('\\"', '"'))
        parts.append(Text(text, style="bold") if tag in ("h2", "h3") else Text(text + "\n"))
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """The keys, then the rules of the game; Escape or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def __init__(self, game: GameDefinition, lang: str, keys: str) -> None:
        super().__init__()
        self.game = game
        self.lang = lang
        self.keys = keys
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            # The keys first: they are what a person pressing ? in the middle of a game looks for.
            keys = Text(self.keys + "\n", style="italic")
            yield Static(Group(keys, rules_renderable(self.game, self.lang)))
        yield Footer(show_command_palette=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


def statistics_renderable(recorder: TerminalRecorder | None, lang: str = "en") -> RenderableType:
    """Return the terminal player's statistics in ``lang``, one table per game, or a line saying none
    are kept."""
    if recorder is None:
        return Text(terminal_text(lang, "Nothing is recorded in this session (--no-record)."))
    figures = recorder.store.statistics(recorder.player_id)
    tables: list[RenderableType] = []
    for definition in recorder.store.games:
        if definition.name in figures.games:
            player = terminal_text(lang, "this terminal")
            for table in definition.statistics_tables(figures[definition.name], player):
                tables.append(statistics_table(table.translated(lambda text: terminal_text(lang, text))))
    return Group(*tables)


class StatisticsScreen(ModalScreen[None]):
    """The player's statistics; Escape or S closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("s", "dismiss", "Close", show=False),
    ]

    def __init__(self, recorder: TerminalRecorder | None, lang: str = "en") -> None:
        super().__init__()
        self.recorder = recorder
        self.lang = lang
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="statistics"):
            yield Static(statistics_renderable(self.recorder, self.lang))
        yield Footer(show_command_palette=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class TooSmall(Static):
    """Says the window is too small for the table, in place of a table that would be cut off."""

    def __init__(self) -> None:
        super().__init__(id="too-small")


class ParlourApp(App[None]):
    """What both terminal games share: the statistics, rules, theme and quit keys, and a plain message
    in place of the table while the window is smaller than the table (``SMALLEST``)."""

    GAME: ClassVar[GameDefinition | None] = None
    """The game, for its rules."""
    KEYS: ClassVar[str] = ""
    """The keys, in English, under the rules on the help screen."""
    SMALLEST: ClassVar[tuple[int, int]] = (1, 1)
    """The smallest window, in columns and rows, that shows the whole table."""

    DEFAULT_CSS = """
    #too-small { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center;
                 padding: 1 2; text-style: bold; color: $warning; }
    Screen.-too-small #too-small { display: block; }
    Screen.-too-small #table { display: none; }
    """

    def __init__(self, lang: str, recorder: TerminalRecorder | None) -> None:
        super().__init__()
        self.lang = lang
        self.recorder = recorder
        translate_bindings(self, lang)
        # The player's look, as on the web: the deck's suit colours and the theme (dark, high contrast;
        # the others leave Textual's default).
        looks = recorder.preferences() if recorder is not None else {}
        self.deck = str(looks.get("deck", "two_colour"))
        self.register_theme(HIGH_CONTRAST)
        chosen = {"dark": DARK, "high_contrast": HIGH_CONTRAST.name}.get(str(looks.get("theme")))
        if chosen is not None:
            self.theme = chosen

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the table is hidden for want of room, only quitting works: no move is made blind."""
        hidden = bool(self.screen_stack) and self.screen_stack[0].has_class("-too-small")
        return action == "quit" or not hidden

    def check_size(self, width: int, height: int) -> None:
        """Show the table, or say how much larger the window must be for it."""
        need_width, need_height = self.SMALLEST
        too_small = width < need_width or height < need_height
        screen = self.screen_stack[0] if self.screen_stack else None
        if screen is None:
            return
        screen.set_class(too_small, "-too-small")
        if too_small:
            text = terminal_text(
                self.lang, "This window is {width}×{height}: the table needs at least {columns}×{rows}."
            ).format(width=width, height=height, columns=need_width, rows=need_height)
            advice = terminal_text(self.lang, "Make the window larger, or press q to quit.")
            screen.query_one(TooSmall).update(f"{text}\n{advice}")

    def action_help(self) -> None:
        """Show the keys and the rules, as on the rules page."""
        if self.GAME is not None:
            self.push_screen(HelpScreen(self.GAME, self.lang, terminal_text(self.lang, self.KEYS)))

    def action_theme(self) -> None:
        """Go on to the next theme: light, dark, high contrast."""
        self.theme = THEMES[(THEMES.index(self.theme) + 1) % len(THEMES)] if self.theme in THEMES else LIGHT

    def action_statistics(self) -> None:
        """Show the player's statistics (the same figures as the web's statistics page)."""
        self.push_screen(StatisticsScreen(self.recorder, self.lang))

    async def action_quit(self) -> None:
        """Leave: the game in play is closed in the records (a left game counts as played)."""
        if self.recorder is not None:
            self.recorder.finish(self.lang)
            self.recorder.close()
        self.exit()
