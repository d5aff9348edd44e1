"""``parlour tripeaks tui`` and TriPeaks in ``parlour tui``: TriPeaks full-screen in the terminal."""

from __future__ import annotations

import click

from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.cli.tui import open_recorder, run_app
from parlour.errors import InvalidInput
from parlour.tripeaks.commands.options import HINT_STRENGTH_OPTION
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH


def run_tripeaks(
    code_text: str | None,
    lang: str,
    database_url: str | None,
    record: bool,
    hint_strength: str = DEFAULT_STRENGTH,
) -> None:
    """Open TriPeaks in the terminal on a deal (a code, a numbered game's number, or a random deal).

    Raises:
        click.BadParameter: not a deal code or number.
    """
    from parlour.tripeaks import Game
    from parlour.tripeaks.definition import deal_from
    from parlour.tripeaks.terminal.app import TriPeaksApp

    try:
        code, numbered = deal_from(code_text or "")  # nothing: a random Easy deal
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="CODE") from error
    recorder = open_recorder(database_url) if record else None
    run_app(TriPeaksApp(Game.from_code(code), lang.lower(), recorder, numbered, hint_strength))


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
