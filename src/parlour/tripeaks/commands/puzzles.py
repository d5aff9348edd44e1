"""``parlour tripeaks puzzles``: puzzles from the numbered games (``parlour.tripeaks.solver.puzzles``)."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from parlour.tripeaks.commands.solver import RULES_CHOICE
from parlour.tripeaks.solver.puzzles import Census, numbered_puzzles


@click.command("puzzles")
@click.option(
    "--count", type=click.IntRange(1, 10_000), default=10, show_default=True, help="How many puzzles."
)
@click.option(
    "--rules", type=RULES_CHOICE, default="easy", show_default=True, help="The numbered games' rules."
)
@click.option(
    "--from",
    "start",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="The first numbered game looked at (one puzzle at most from each game).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of puzzles.")
@click.option("--stats", is_flag=True, help="Also say what the search looked at and rejected (on stderr).")
def puzzles_command(count: int, rules: str, start: int, as_json: bool, stats: bool) -> None:
    """Find TriPeaks puzzles in the numbered games: positions where exactly one move keeps the deal
    winnable (every other move proved lost) and a player who cannot see the face-down cards can tell
    it is best. Each is its deal's code, the moves that lead to it and the answer, in the words of
    parlour tripeaks play ("KC", "draw")."""
    census = Census()
    try:
        found = numbered_puzzles(rules, count, start, census)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps([puzzle.to_json() for puzzle in found]))
    else:
        table = Table(title=f"{len(found)} TriPeaks puzzles ({rules})")
        for heading in ("deal", "after", "answer", "difficulty", "themes", "chance"):
            table.add_column(heading)
        for puzzle in found:
            table.add_row(
                puzzle.code,
                f"{len(puzzle.moves)} moves",
                puzzle.answer,
                puzzle.difficulty,
                ", ".join(puzzle.themes),
                f"{puzzle.chance:.0%} (next {puzzle.runner_up:.0%})",
            )
        Console(soft_wrap=True).print(table)
    if stats:
        click.echo(json.dumps(census.to_json()), err=True)
