"""``parlour ratings``: the people's leaderboard of a game played at tables, and ``parlour ratings export
--json``, every rated round and every rating after it, in the order they were made, with the model's
settings, so that anyone can recompute the ratings with the ``openskill`` package."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.db import database_url_option, opened_store
from parlour.cli.options import LANG_OPTION
from parlour.games.ratings import MODEL_SETTINGS, shown
from parlour.games.registry import default_registry
from parlour.i18n import decimal, gettext_for
from parlour.store.ratings import MIN_ROUNDS

DOMAIN = "terminal"


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


def _rated_games() -> list[str]:
    return [
        definition.name
        for definition in default_registry()
        if definition.seated is not None and definition.seated.computer_ratings
    ]


GAME_OPTION = click.option(
    "--game",
    type=click.Choice(_rated_games()),
    default=next(iter(_rated_games()), None),
    show_default=True,
    help="The game whose ratings to show.",
)


@click.group(invoke_without_command=True)
@GAME_OPTION
@click.option("--week", is_flag=True, help="Only the last seven days' rated rounds count for the board.")
@click.option(
    "--min-rounds", default=MIN_ROUNDS, show_default=True, type=click.IntRange(1), help="Fewest rated rounds."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@database_url_option
@LANG_OPTION
@click.pass_context
def ratings(
    context: click.Context,
    game: str,
    week: bool,
    min_rounds: int,
    as_json: bool,
    database_url: str | None,
    lang: str,
) -> None:
    """Show the people's leaderboard of a game (rated rounds at public tables, OpenSkill's
    Plackett–Luce model, on the computer players' scale)."""
    if context.invoked_subcommand is not None:
        return
    with opened_store(database_url) as store:
        board = store.leaderboard(game, week=week, min_rounds=min_rounds)
    if as_json:
        people = [{"player": line.player, "name": line.name, "rounds": line.rounds, **line.skill.to_json()}
                  for line in board]  # fmt: skip
        click.echo(json.dumps({"game": game, "week": week, "min_rounds": min_rounds, "people": people}))
        return
    title = _(lang, "People's ratings this week") if week else _(lang, "People's ratings")
    table = Table(title=f"{title} · {game}")
    for heading, justify in (("#", "right"), (_(lang, "Player"), "left"), (_(lang, "Rating"), "right"),
                             (_(lang, "Rounds"), "right")):  # fmt: skip
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for place, line in enumerate(board, start=1):
        rating = f"{decimal(line.skill.shown, lang, 0)} ± {decimal(line.skill.spread, lang, 0)}"
        if line.skill.provisional:
            rating += " ?"
        table.add_row(str(place), line.name or f"player {line.player}", rating, decimal(line.rounds, lang, 0))
    console = Console(soft_wrap=True)
    if board:
        console.print(table)
    else:
        console.print(_(lang, "Nobody has enough rated rounds yet."))


@ratings.command()
@click.option("--game", type=click.Choice(_rated_games()), default=None, help="Only this game's rounds.")
@click.option("--json", "as_json", is_flag=True, help="Print every rated round and rating as JSON.")
@database_url_option
@LANG_OPTION
def export(game: str | None, as_json: bool, database_url: str | None, lang: str) -> None:
    """Print every rated round, in the order the ratings were updated, with the ratings the seats
    played at and the people's ratings after it, and the model's settings (with --json); without
    --json, how many there are."""
    with opened_store(database_url) as store:
        rounds = store.rated_rounds(game)
    final: dict[str, dict[str, Any]] = {}
    for kept in rounds:
        for player, after in kept["after"].items():
            key = f"{kept['game']}:{player}"
            count = final.get(key, {}).get("rounds", 0) + 1
            final[key] = {"game": kept["game"], "player": int(player), **after, "rounds": count}
    ratings_after = [{**entry, "rating": shown(entry["mu"])} for entry in final.values()]
    if as_json:
        click.echo(json.dumps({"settings": dict(MODEL_SETTINGS), "rounds": rounds, "ratings": ratings_after}))
        return
    text = _(lang, "{rounds} rated rounds, {people} people rated. Add --json to print them all.")
    click.echo(text.format(rounds=decimal(len(rounds), lang, 0), people=decimal(len(ratings_after), lang, 0)))
