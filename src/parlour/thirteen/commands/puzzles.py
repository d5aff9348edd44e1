"""``parlour thirteen puzzles``: ends of rounds with one winning play (``parlour.thirteen.puzzles``)."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from parlour.thirteen.puzzles import ThirteenCensus, match_puzzles


@click.command("puzzles")
@click.option(
    "--count", type=click.IntRange(1, 10_000), default=10, show_default=True, help="How many puzzles."
)
@click.option(
    "--from",
    "start",
    type=click.IntRange(1, 26**7 - 1),
    default=1,
    show_default=True,
    help="The first public match number played (one puzzle at most from each round).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of puzzles.")
@click.option("--stats", is_flag=True, help="Also say what the search looked at and left out (on stderr).")
def puzzles_command(count: int, start: int, as_json: bool, stats: bool) -> None:
    """Find Thirteen puzzles: ends of rounds, every hand shown, where exactly one play (or pass) makes
    the player go out first against any defence, proved by an exact search. They come from matches the
    computer players play from public match numbers. Each is the match's code, its moves up to the
    position and the answer, in the words of parlour thirteen play ("3S 4S 5S", "pass")."""
    census = ThirteenCensus()
    found = match_puzzles(count, start, census)
    if as_json:
        click.echo(json.dumps([puzzle.to_json() for puzzle in found]))
    else:
        table = Table(title=f"{len(found)} Thirteen puzzles")
        for heading in ("match", "round", "seat", "hands", "table", "answer", "difficulty"):
            table.add_column(heading)
        for puzzle in found:
            table.add_row(
                puzzle.code,
                str(puzzle.round_number),
                str(puzzle.seat + 1),
                " | ".join(puzzle.hands),
                puzzle.table or "—",
                puzzle.answer,
                puzzle.difficulty,
            )
        Console(soft_wrap=True).print(table)
    if stats:
        click.echo(json.dumps(census.to_json()), err=True)
