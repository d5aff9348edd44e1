"""``parlour stats [--player NAME]``: players' statistics as Rich tables."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.errors import ParlourError
from parlour.games.registry import Registry
from parlour.i18n import gettext_for
from parlour.store import Player, Statistics, Store, StoreUnavailable
from parlour.tui.statistics_tables import statistics_table

DOMAIN = "terminal"
"""The terminal's catalog, which holds the statistics' words for the TUI and for ``parlour stats``."""


def overview_table(games: Registry, rows: list[tuple[Player, Statistics]], lang: str = "en") -> Table:
    """Return one line per player in ``lang``: each registered game's summary figures."""
    table = Table(title=_(lang, "Players"))
    table.add_column(_(lang, "Player"), justify="left")
    for definition in games:
        for heading, _value in definition.statistics_summary(definition.fold([])):
            table.add_column(_(lang, heading), justify="right")
    for player, stats in rows:
        cells = [display(player)]
        for definition in games:
            cells.extend(value for _heading, value in definition.statistics_summary(stats[definition.name]))
        table.add_row(*cells)
    return table


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


def display(player: Player) -> str:
    """Return the player's name, or ``player N`` for a player without one."""
    return player.name or f"player {player.player_id}"


def find_players(store: Store, name: str) -> list[Player]:
    """Return the players a ``--player`` value names: a display name, or what ``stats`` prints for a
    player without one (``player 7``, also ``#7``)."""
    text = name.strip()
    for prefix in ("player ", "#"):
        number = text.lower().removeprefix(prefix)
        if text.lower().startswith(prefix) and number.isascii() and number.isdigit():
            try:
                return [store.player(int(number))]
            except ParlourError:
                return []
    return store.players_named(text)


@click.command()
@click.option(
    "--player",
    "name",
    default=None,
    help="Show this player's statistics in detail (a display name, or 'player N' as the table shows).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON: each player's figures, by game.")
@database_url_option
@LANG_OPTION
def stats(name: str | None, as_json: bool, database_url: str | None, lang: str) -> None:
    """Show statistics: every player in one table, or one player's figures in every game."""
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        console = Console()
        found = store.all_players() if name is None else find_players(store, name)
        if name is not None and not found:
            raise click.ClickException(_(lang, "no player is called “{name}”").format(name=name))
        if as_json:
            listing = [
                {
                    "player": player.player_id,
                    "name": player.name,
                    **store.statistics(player.player_id).to_json(),
                }
                for player in found
            ]
            click.echo(json.dumps(listing, ensure_ascii=False))
            return
        if name is None:
            if not found:
                console.print(_(lang, "No player yet: play a game first (parlour serve)."), markup=False)
                return
            everyone = [(player, store.statistics(player.player_id)) for player in found]
            console.print(overview_table(store.games, everyone, lang))
            return
        for player in found:
            figures = store.statistics(player.player_id)
            label = display(player) if len(found) == 1 else f"{display(player)} (#{player.player_id})"
            for definition in store.games:
                for table in definition.statistics_tables(figures[definition.name], label):
                    console.print(statistics_table(table.translated(lambda text: _(lang, text))))
    finally:
        store.close()
