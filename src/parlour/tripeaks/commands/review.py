"""``parlour tripeaks review``: the review of a game, move by move (``parlour.tripeaks.solver.review``).

The exact verdicts see every card, so a review is for a game that is over, or for a deal whose code
the reader holds anyway: the command line is given the code and the moves.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.table import Table

from parlour.cli.options import LANG_OPTION
from parlour.i18n import gettext_for, percent
from parlour.tripeaks.commands.solver import DEAL_RULES_OPTION, HINT_SAMPLES_OPTION, SEED_OPTION, game_for
from parlour.tripeaks.definition import review_texts, verdict_words
from parlour.tripeaks.solver.review import Review, review_game

DOMAIN = "solver"


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


@click.command("review")
@click.argument("code")
@click.argument("moves", nargs=-1)
@DEAL_RULES_OPTION
@HINT_SAMPLES_OPTION
@SEED_OPTION
@click.option("--exact-only", is_flag=True, help="Only the verdicts that see every card (much faster).")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@LANG_OPTION
def review_command(
    code: str,
    moves: tuple[str, ...],
    rules: str | None,
    samples: int,
    seed: int,
    exact_only: bool,
    as_json: bool,
    lang: str,
) -> None:
    """Review the game of MOVES played from the deal of CODE: after every move, whether it could still
    be won and in how few moves (the solver, which sees every card); the move that lost it, with the
    shortest win from just before; and at each choice the chance of winning of the move played and of
    the best move, as the Thorough hint estimates them without looking at any hidden card, with a grade
    by the chance lost (inaccuracy 5 points, mistake 10, blunder 15).

    A refused move is reported on standard error as by `parlour tripeaks replay`, changes nothing and
    the review goes on; the exit status is then 1.
    """
    game = game_for(code, rules)
    review = review_game(game, moves, seed=seed, samples=samples, honest=not exact_only)
    if as_json:
        click.echo(json.dumps(review.to_json(), ensure_ascii=False))
    else:
        _print(review, lang)
    errors = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)
    for entry in review.rejected:
        errors.print(
            _(lang, "Move {index} ({move}) refused [{code}]").format(
                index=entry["index"], move=entry["move"], code=entry["reason"]
            ),
            markup=False,
        )
    if review.rejected:
        sys.exit(1)


def _print(review: Review, lang: str) -> None:
    console = Console(highlight=False, soft_wrap=True)
    data = review.to_json()
    said = review_texts(data, lang)
    for line in said["head"]:
        console.print(line, markup=False)
    table = Table(box=None, pad_edge=False)
    for heading in ("#", *(_(lang, text) for text in ("Move", "After it", "Played", "Best", "Grade"))):
        table.add_column(heading)
    for move in data["moves"]:
        played = best = ""
        if move["grade"] is not None:
            played, best = percent(move["played_chance"], lang), percent(move["best_chance"], lang)
            if move["best_move"] != move["move"]:
                best = f"{best} ({move['best_move']})"
        table.add_row(
            str(move["index"]),
            move["move"],
            verdict_words(move["winnable_after"], move["fewest_left_after"], lang),
            played,
            best,
            _(lang, move["grade"]) if move["grade"] else "",
        )
    console.print(table)
    for line in said["foot"]:
        console.print(line, markup=False)
