"""``parlour players``: what an operator does with display names people reported (issue 50): list the
queue, rename a player, take a name away, or block it for everyone."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option
from parlour.errors import ParlourError
from parlour.store import Store, StoreUnavailable


def _open(database_url: str | None) -> Store:
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    return store


@click.group()
def players() -> None:
    """Players' display names: the reported ones, and an operator's answers."""


@players.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@database_url_option
def reported(as_json: bool, database_url: str | None) -> None:
    """List the names people reported and no operator has answered yet, the most reported first."""
    store = _open(database_url)
    try:
        queue = store.reported_names()
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({"reported": [entry.to_json() for entry in queue]}, ensure_ascii=False))
        return
    if not queue:
        click.echo("No reported name is waiting.")
        return
    table = Table(title="Reported names")
    for heading in ("player", "name reported", "name now", "reports", "first reported"):
        table.add_column(heading)
    for entry in queue:
        table.add_row(
            str(entry.player),
            entry.name,
            entry.current or "—",
            str(entry.reports),
            f"{entry.first:%Y-%m-%d %H:%M}",
        )
    Console(soft_wrap=True).print(table)


@players.command()
@click.argument("player", type=int)
@click.argument("name")
@database_url_option
def rename(player: int, name: str, database_url: str | None) -> None:
    """Give PLAYER the display name NAME (whenever: the once-a-day rule is the players' own), settling
    the reports of their name."""
    store = _open(database_url)
    try:
        renamed = store.rename(player, name, by_operator=True)
    except ParlourError as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()
    click.echo(f"player {player} is now called {renamed.name}")


@players.command()
@click.argument("player", type=int)
@database_url_option
def clear(player: int, database_url: str | None) -> None:
    """Take PLAYER's display name away (they are shown by seat again), settling its reports."""
    store = _open(database_url)
    try:
        store.clear_name(player)
    except ParlourError as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()
    click.echo(f"player {player} has no name now")


@players.command()
@click.argument("player", type=int)
@database_url_option
def block(player: int, database_url: str | None) -> None:
    """Block PLAYER's display name for everyone (no player may take it, or a name read the same, again)
    and take it away from them."""
    store = _open(database_url)
    try:
        name = store.block_name(player)
    except ParlourError as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()
    click.echo(
        f"blocked {name!r}; player {player} has no name now" if name else f"player {player} had no name"
    )
