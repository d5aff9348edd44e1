"""``parlour tui`` and ``parlour tripeaks tui``: the full-screen terminal app (Textual)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from parlour.cli.db import database_url_option
from parlour.cli.options import HINT_STRENGTH_OPTION, LANG_OPTION
from parlour.errors import InvalidInput
from parlour.store import StoreUnavailable
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH

if TYPE_CHECKING:
    from parlour.tui.records import Recorder


def open_recorder(database_url: str | None) -> Recorder:
    """Return the recorder of statistics and records on the database.

    Raises:
        click.ClickException: the database is not available (said in words, not a traceback).
    """
    from parlour.tui.records import Recorder

    try:
        return Recorder(database_url)
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error


def run_tripeaks(
    code_text: str | None,
    lang: str,
    database_url: str | None,
    record: bool,
    hint_strength: str = DEFAULT_STRENGTH,
) -> None:
    """Open TriPeaks in the terminal on a deal (a code, a numbered game's number, or a random deal)."""
    from parlour.games.tripeaks import deal_from
    from parlour.tripeaks import Game
    from parlour.tui.tripeaks_app import TriPeaksApp

    try:
        code, numbered = deal_from(code_text or "")  # nothing: a random Easy deal
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="CODE") from error
    recorder = open_recorder(database_url) if record else None
    run_app(TriPeaksApp(Game.from_code(code), lang.lower(), recorder, numbered, hint_strength))


def run_thirteen(
    code_text: str | None, lang: str, database_url: str | None, record: bool, speed: str
) -> None:
    """Open Thirteen in the terminal on a match (a ``TH1-`` code, or a random one)."""
    from parlour.tui.thirteen_app import ThirteenApp

    recorder = open_recorder(database_url) if record else None
    options = {"speed": speed} | ({"code": code_text} if code_text else {})
    try:
        app = ThirteenApp(options, lang.lower(), recorder)
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="CODE") from error
    run_app(app)


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


@click.command("tui")
@click.argument("code", required=False)
@LANG_OPTION
@database_url_option
@click.option("--no-record", is_flag=True, help="Keep nothing in the database (no statistics, no records).")
def tui(code: str | None, lang: str, database_url: str | None, no_record: bool) -> None:
    """Parlour full-screen in the terminal: mouse and keys, the fair hint, statistics kept.

    Without CODE a menu chooses the game. CODE is a TriPeaks deal code or a numbered game's number
    (Easy), or a Thirteen match code (TH1-…). TriPeaks keys: arrows choose a card, Enter plays it, D
    draws, U undoes, N new game, H hint, G hint strength, B reads the board, S statistics, T theme,
    ? rules, Q quits.
    """
    if code is None:
        from parlour.tui.menu import MenuApp

        game = run_app(MenuApp(lang.lower()))
        if game == "thirteen":
            run_thirteen(None, lang, database_url, not no_record, "normal")
        elif game == "tripeaks":
            run_tripeaks(None, lang, database_url, not no_record)
        return
    if code.strip().upper().startswith("TH1-"):
        run_thirteen(code, lang, database_url, not no_record, "normal")
        return
    run_tripeaks(code, lang, database_url, not no_record)


@click.command("tui")
@click.argument("code", required=False)
@LANG_OPTION
@database_url_option
@click.option("--no-record", is_flag=True, help="Keep nothing in the database (no statistics, no records).")
@HINT_STRENGTH_OPTION
def tripeaks_tui(
    code: str | None, lang: str, database_url: str | None, no_record: bool, hint_strength: str
) -> None:
    """TriPeaks full-screen in the terminal (CODE: a deal code or a numbered game's number). G changes
    the hint strength while playing."""
    run_tripeaks(code, lang, database_url, not no_record, hint_strength)


@click.command("tui")
@click.argument("code", required=False)
@LANG_OPTION
@database_url_option
@click.option("--no-record", is_flag=True, help="Keep nothing in the database (no statistics).")
@click.option(
    "--speed",
    type=click.Choice(["instant", "fast", "normal", "slow"]),
    default="normal",
    show_default=True,
    help="How quickly the computer players move.",
)
def thirteen_tui(code: str | None, lang: str, database_url: str | None, no_record: bool, speed: str) -> None:
    """Thirteen full-screen in the terminal against three computer players.

    Keys: arrows choose a card, Space raises or lowers it (a selection that cannot be extended is played
    at once), Enter plays the raised cards, P passes, C deals the next round, Q quits. The mouse raises
    cards too.
    """
    run_thirteen(code, lang, database_url, not no_record, speed)
