"""``parlour stats [--player NAME]``: players' statistics as Rich tables."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option
from parlour.store import Player, Statistics

RULE_NAMES = {"easy": "Easy", "classic": "Classic", "custom": "Variants", "all": "All"}


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _number(value: float | int | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def tripeaks_table(stats: Statistics, title: str) -> Table:
    """Return the TriPeaks table of one player: one row per rule set played, then all together."""
    table = Table(title=title)
    for heading in ("Rules", "Played", "Won", "Win rate", "Best score", "Streak", "Longest", "Moves/win"):
        table.add_column(heading, justify="left" if heading == "Rules" else "right")
    keys = [key for key in ("easy", "classic", "custom") if key in stats.tripeaks] + ["all"]
    for key in keys:
        row = stats.tripeaks[key]
        table.add_row(
            RULE_NAMES[key],
            str(row.played),
            str(row.won),
            _percent(row.win_rate),
            _number(row.best_score),
            str(row.current_streak),
            str(row.longest_streak),
            _number(row.average_moves_of_wins, 1),
        )
    return table


def thirteen_table(stats: Statistics, title: str) -> Table:
    """Return the Thirteen table of one player."""
    table = Table(title=title)
    for heading in ("Games", "Won", "Rounds", "1st", "2nd", "3rd", "4th", "Points"):
        table.add_column(heading, justify="right")
    row = stats.thirteen
    table.add_row(str(row.games), str(row.won), str(row.rounds), *map(str, row.places), str(row.points))
    return table


def overview_table(rows: list[tuple[Player, Statistics]]) -> Table:
    """Return one line per player: TriPeaks played/won/best, Thirteen games/won."""
    table = Table(title="Players")
    for heading in ("Player", "TriPeaks played", "won", "win rate", "best score", "Thirteen games", "won"):
        table.add_column(heading, justify="left" if heading == "Player" else "right")
    for player, stats in rows:
        everything = stats.tripeaks["all"]
        table.add_row(
            display(player),
            str(everything.played),
            str(everything.won),
            _percent(everything.win_rate),
            _number(everything.best_score),
            str(stats.thirteen.games),
            str(stats.thirteen.won),
        )
    return table


def display(player: Player) -> str:
    """Return the player's name, or ``player N`` for a player without one."""
    return player.name or f"player {player.player_id}"


@click.command()
@click.option(
    "--player", "name", default=None, help="Show this player's statistics in detail (by display name)."
)
@database_url_option
def stats(name: str | None, database_url: str | None) -> None:
    """Show statistics: every player in one table, or one player's TriPeaks and Thirteen figures."""
    from parlour.store import Store

    store = Store(database_url)
    try:
        store.upgrade()
        console = Console()
        if name is None:
            players = store.all_players()
            if not players:
                console.print("No player yet: play a game first (parlour serve).")
                return
            console.print(
                overview_table([(player, store.statistics(player.player_id)) for player in players])
            )
            return
        found = store.players_named(name)
        if not found:
            raise click.ClickException(f"no player is called {name!r}")
        for player in found:
            figures = store.statistics(player.player_id)
            label = display(player) if len(found) == 1 else f"{display(player)} (#{player.player_id})"
            console.print(tripeaks_table(figures, f"TriPeaks — {label}"))
            console.print(thirteen_table(figures, f"Thirteen — {label}"))
    finally:
        store.close()
