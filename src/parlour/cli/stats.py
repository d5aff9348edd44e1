"""``parlour stats [--player NAME]``: players' statistics as Rich tables."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option
from parlour.errors import ParlourError
from parlour.games.base import StatisticsTable
from parlour.games.registry import Registry
from parlour.store import Player, Statistics, Store, StoreUnavailable


def statistics_table(table: StatisticsTable) -> Table:
    """Return a game's statistics table (from its definition) as a Rich table."""
    rich = Table(title=table.title)
    for index, heading in enumerate(table.headings):
        rich.add_column(heading, justify="left" if index == 0 and table.labelled else "right")
    for row in table.rows:
        rich.add_row(*row)
    return rich


def overview_table(games: Registry, rows: list[tuple[Player, Statistics]]) -> Table:
    """Return one line per player: each game's summary figures (TriPeaks played/won/best, Thirteen …)."""
    table = Table(title="Players")
    table.add_column("Player", justify="left")
    for definition in games:
        for heading, _value in definition.statistics_summary(definition.fold([])):
            table.add_column(heading, justify="right")
    for player, stats in rows:
        cells = [display(player)]
        for definition in games:
            cells.extend(value for _heading, value in definition.statistics_summary(stats[definition.name]))
        table.add_row(*cells)
    return table


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
def stats(name: str | None, as_json: bool, database_url: str | None) -> None:
    """Show statistics: every player in one table, or one player's TriPeaks and Thirteen figures."""
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        console = Console()
        found = store.all_players() if name is None else find_players(store, name)
        if name is not None and not found:
            raise click.ClickException(f"no player is called {name!r}")
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
                console.print("No player yet: play a game first (parlour serve).")
                return
            everyone = [(player, store.statistics(player.player_id)) for player in found]
            console.print(overview_table(store.games, everyone))
            return
        for player in found:
            figures = store.statistics(player.player_id)
            label = display(player) if len(found) == 1 else f"{display(player)} (#{player.player_id})"
            for definition in store.games:
                for table in definition.statistics_tables(figures[definition.name], label):
                    console.print(statistics_table(table))
    finally:
        store.close()
