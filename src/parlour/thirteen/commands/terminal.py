"""``parlour thirteen tui`` and Thirteen in ``parlour tui``: Thirteen full-screen in the terminal."""

from __future__ import annotations

import click

from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.cli.tui import open_recorder, run_app
from parlour.errors import InvalidInput


def run_thirteen(
    code_text: str | None, lang: str, database_url: str | None, record: bool, speed: str = "normal"
) -> None:
    """Open Thirteen in the terminal on a match (a ``TH1-`` code, or a random one).

    Raises:
        click.BadParameter: not a match code.
    """
    from parlour.thirteen.terminal.app import ThirteenApp

    recorder = open_recorder(database_url) if record else None
    options = {"speed": speed} | ({"code": code_text} if code_text else {})
    try:
        app = ThirteenApp(options, lang.lower(), recorder)
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="CODE") from error
    run_app(app)


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


@click.command("online")
@click.option(
    "--server",
    required=True,
    envvar="PARLOUR_SERVER",
    help="The Parlour server to play on, e.g. http://127.0.0.1:8000.",
)
@click.option("--rated", is_flag=True, help="A rated table: every round counts for your rating.")
@click.option(
    "--target", type=click.Choice(["5", "10", "20"]), default="10", show_default=True, help="Points to win."
)
@click.option(
    "--strength",
    type=click.Choice(["random", "greedy", "strong", "expert"]),
    default="strong",
    show_default=True,
    help="The computer players' strength in the seats nobody holds.",
)
@LANG_OPTION
def thirteen_online(server: str, rated: bool, target: str, strength: str, lang: str) -> None:
    """Play now from the terminal: a seat at a public Thirteen table of a Parlour server at once, with
    strangers and computer players, and your rating on top.

    Keys: arrows choose a card, Space raises or lowers it, Enter plays the raised cards, P passes, C is
    "Next round", L leaves the table, Q quits. Your player's token on that server is kept in your data
    folder, so you come back as the same player with the same rating.
    """
    from parlour.thirteen.terminal.online import OnlineSeat, ServerError, ThirteenOnlineApp

    try:
        seat = OnlineSeat(server, lang.lower())
    except ServerError as error:
        raise click.BadParameter(str(error), param_hint="--server") from error
    options = {"game": "thirteen", "rated": rated, "target": int(target), "strength": strength}
    run_app(ThirteenOnlineApp(seat, options))
