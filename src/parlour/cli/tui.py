"""``parlour tui``: the full-screen terminal app (Textual), for every game that has a terminal screen.

Each game's own command (``parlour GAME tui``) is in its own module; this
one knows the games through the registry: the menu lists them, and a code goes to the game that owns it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.games.base import GameDefinition
from parlour.store import StoreUnavailable

if TYPE_CHECKING:
    from parlour.tui.records import TerminalRecorder

Opener = Callable[[str | None, str, str | None, bool], None]
"""Opens one game's screen: (code or None, language, database URL, whether to record)."""


def open_recorder(database_url: str | None) -> TerminalRecorder:
    """Return the recorder of statistics and records on the database.

    Raises:
        click.ClickException: the database is not available (said in words, not a traceback).
    """
    from parlour.tui.records import TerminalRecorder

    try:
        return TerminalRecorder(database_url)
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error


def run_app(app: Any) -> Any:
    """Run a Textual app to its end and return its result; an app that failed (Textual has shown
    why) makes the command exit with the app's status, not 0.

    Raises:
        SystemExit: the app ended with a non-zero return code.
    """
    result = app.run()
    if app.return_code:
        raise SystemExit(app.return_code)
    return result


def terminal_games() -> list[GameDefinition]:
    """Return the registered games that have a terminal screen, in the registry's order."""
    from parlour.games.registry import default_registry

    return [definition for definition in default_registry() if definition.terminal is not None]


def opener_of(definition: GameDefinition) -> Opener:
    """Return the function that opens ``definition``'s terminal screen (imported now)."""
    assert definition.terminal is not None
    module, _, name = definition.terminal.opener.partition(":")
    opener: Opener = getattr(importlib.import_module(module), name)
    return opener


def game_of_code(games: list[GameDefinition], code: str) -> GameDefinition:
    """Return the game whose code ``code`` is.

    Raises:
        click.BadParameter: no game's (the message says what each game's codes look like).
    """
    for definition in games:
        assert definition.terminal is not None
        if definition.terminal.owns_code(code):
            return definition
    raise click.BadParameter(f"{code!r} is no game's code ({codes_of(games)})", param_hint="CODE")


def codes_of(games: list[GameDefinition]) -> str:
    """Return what each game's codes look like, game by game: ``Title: codes; …``."""
    return "; ".join(f"{game.title}: {game.terminal.codes}" for game in games if game.terminal)


class _WithCodes(click.Command):
    """``parlour tui``: its help ends with what each registered game's codes look like, read from the
    registry when the help is shown (not whenever ``parlour`` starts)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help_text(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"CODE: {codes_of(terminal_games())}.")


@click.command("tui", cls=_WithCodes)
@click.argument("code", required=False)
@LANG_OPTION
@database_url_option
@click.option("--no-record", is_flag=True, help="Keep nothing in the database (no statistics, no records).")
def tui(code: str | None, lang: str, database_url: str | None, no_record: bool) -> None:
    """Parlour full-screen in the terminal: mouse and keys, hints, statistics kept.

    Without CODE a menu chooses the game; CODE opens the game whose code it is. Each game's own
    command (parlour GAME tui --help) lists its keys; ? shows them while playing.
    """
    games = terminal_games()
    if code is None:
        from parlour.tui.menu import MenuApp

        chosen = run_app(MenuApp(lang.lower(), games))
        definition = next((game for game in games if game.name == chosen), None)
        if definition is not None:
            opener_of(definition)(None, lang, database_url, not no_record)
        return
    opener_of(game_of_code(games, code))(code, lang, database_url, not no_record)
