"""``parlour players``: what an operator does with display names people reported (issue 50): list the
queue, rename a player, take a name away, or block it for everyone."""

from __future__ import annotations

import json
from collections.abc import Callable

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option, opened_store
from parlour.errors import ParlourError
from parlour.store import Store


def _answer(database_url: str | None, answer: Callable[[Store], str]) -> None:
    """Make one of an operator's answers in the store and say what was done.

    Raises:
        click.ClickException: the store refused it (no such player, a name not allowed …).
    """
    with opened_store(database_url) as store:
        try:
            said = answer(store)
        except ParlourError as error:
            raise click.ClickException(str(error)) from error
    click.echo(said)


@click.group()
def players() -> None:
    """Players: their reported display names and an operator's answers, what is kept about a player,
    and deleting one."""


@players.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@database_url_option
def reported(as_json: bool, database_url: str | None) -> None:
    """List the names people reported and no operator has answered yet, the most reported first."""
    with opened_store(database_url) as store:
        queue = store.reported_names()
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
    _answer(
        database_url,
        lambda store: f"player {player} is now called {store.rename(player, name, by_operator=True).name}",
    )


@players.command()
@click.argument("player", type=int)
@database_url_option
def clear(player: int, database_url: str | None) -> None:
    """Take PLAYER's display name away (they are shown by seat again), settling its reports."""

    def clear_it(store: Store) -> str:
        store.clear_name(player)
        return f"player {player} has no name now"

    _answer(database_url, clear_it)


@players.command()
@click.argument("player", type=int)
@database_url_option
def block(player: int, database_url: str | None) -> None:
    """Block PLAYER's display name for everyone (no player may take it, or a name read the same, again)
    and take it away from them."""

    def block_it(store: Store) -> str:
        name = store.block_name(player)
        return (
            f"blocked {name!r}; player {player} has no name now" if name else f"player {player} had no name"
        )

    _answer(database_url, block_it)


@players.command()
@click.argument("player", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print everything stored about PLAYER as JSON.")
@database_url_option
def show(player: int, as_json: bool, database_url: str | None) -> None:
    """Show PLAYER: name, when they came, their browsers and passkeys, and how many rows of each table
    name them (with --json: every such row, what "Download my data" gives them)."""
    with opened_store(database_url) as store:
        try:
            data = store.player_data(player)
            browsers = store.browsers(player, None)
            passkeys = store.passkeys(player)
        except ParlourError as error:
            raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
        return
    [row] = data["rows"]["players"]
    console = Console(soft_wrap=True)
    console.print(f"player {player}: {row['name'] or '(no name)'}, since {str(row['created_at'])[:10]}")
    for browser in browsers:
        name, _, system = (browser.agent or "").partition("|")
        called = " on ".join(part for part in (name, system) if part) or "a browser"
        console.print(f"  browser {browser.browser_id}: {called}, last seen {browser.used_at:%Y-%m-%d}")
    for key in passkeys:
        console.print(f"  passkey {key.passkey_id}, made {key.created_at:%Y-%m-%d}")
    table = Table(title="Rows that name the player")
    table.add_column("table")
    table.add_column("rows", justify="right")
    for name, rows in sorted(data["rows"].items()):
        if rows:
            table.add_row(name, str(len(rows)))
    console.print(table)


@players.command()
@click.argument("player", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@database_url_option
def delete(player: int, yes: bool, database_url: str | None) -> None:
    """Delete PLAYER as "Delete me" does: their name, browsers, passkeys, preferences and private games
    go; their results on the boards and in other people's records stay under a nameless row."""
    if not yes:
        click.confirm(f"Delete player {player} and their personal data? This cannot be undone", abort=True)

    def delete_them(store: Store) -> str:
        erased = store.erase_player(player)
        return f"player {player} is deleted; their results stay under the nameless player {erased}"

    _answer(database_url, delete_them)
