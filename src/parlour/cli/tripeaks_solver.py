"""``parlour tripeaks solve | census | hint | autoplay``: the solver on the command line.

``show`` (in ``cli/tripeaks.py``) also prints the census verdict of numbered games through
``numbered_line``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from parlour.cli.options import HINT_STRENGTH_OPTION
from parlour.errors import IllegalMove, InvalidInput
from parlour.i18n import gettext_for
from parlour.intervals import wilson
from parlour.tripeaks import Deal, DealCode, Game, Rules
from parlour.tripeaks.solver import numbered_result, solve
from parlour.tripeaks.solver.census import (
    Job,
    Summary,
    jobs_for_file,
    jobs_for_numbers,
    run_census,
    summarise,
)
from parlour.tripeaks.solver.core import core
from parlour.tripeaks.solver.hints import DEFAULT_SAMPLES
from parlour.tripeaks.solver.players import (
    AUTOPLAY_SAMPLES,
    PLAYERS,
    QUICK_SAMPLES,
    Played,
    hint_at,
    play_number,
)
from parlour.tripeaks.solver.solve import DEFAULT_NODE_LIMIT

DOMAIN = "solver"
RULES_CHOICE = click.Choice(["easy", "classic"], case_sensitive=False)


def _console(*, stderr: bool = False) -> Console:
    return Console(highlight=False, soft_wrap=True, stderr=stderr)


def numbered_line(code: DealCode, lang: str = "en") -> str | None:
    """The census verdict for a numbered game, e.g. ``Game #41: winnable in 41 moves``; None when the
    code is not a numbered game of the shipped census."""
    result = numbered_result(code.rules, code.number)
    if result is None:
        return None
    if result.winnable:
        text = gettext_for(lang, DOMAIN, "Game #{number}: winnable in {moves} moves")
        return text.format(number=result.number, moves=result.moves)
    text = gettext_for(
        lang, DOMAIN, "Game #{number}: not winnable; at best {left} cards left in {moves} moves"
    )
    return text.format(number=result.number, left=result.best_left, moves=result.best_moves)


def game_for(text: str, rules_name: str | None) -> Game:
    """A game from a deal code or an explicit layout (52 or 53 cards in layout order, ``-`` for an empty
    discard pile). A layout is played under ``rules_name`` (Easy by default); a code under its own rules.

    Raises:
        click.BadParameter: the text is neither.
    """
    try:
        if len(text.replace(",", " ").split()) > 1:
            deal = Deal.parse(text)
            base = Rules.named(rules_name or "easy")
            rules = Rules(
                king_ace_linked=base.king_ace_linked,
                joker=deal.has_joker,
                empty_discard=deal.discard is None,
            )
            return Game(deal, rules)
        code = DealCode.parse(text)
        if rules_name is not None:
            code = DealCode(
                code.number, Rules(**(code.rules.as_dict() | {"king_ace_linked": rules_name == "easy"}))
            )
        return Game.from_code(code)
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="CODE_OR_DEAL") from error


def _apply(game: Game, moves: tuple[str, ...]) -> None:
    for index, move in enumerate(moves, start=1):
        try:
            game.apply(move)
        except (IllegalMove, InvalidInput) as error:
            raise click.BadParameter(f"move {index} {move!r}: {error}", param_hint="MOVE") from error


@click.command("solve")
@click.argument("deal")
@click.argument("moves", nargs=-1)
@click.option("--rules", type=RULES_CHOICE, help="Rules for an explicit layout, or to override a code's.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--node-limit", type=click.IntRange(min=1), default=DEFAULT_NODE_LIMIT, show_default=True)
@click.option("--core", "core_name", type=click.Choice(["c", "python"]), help="Force a solver core.")
@click.option(
    "--any-win",
    is_flag=True,
    help="Only whether it can be won: the first win found, not the fewest moves (much faster).",
)
def solve_command(
    deal: str,
    moves: tuple[str, ...],
    rules: str | None,
    as_json: bool,
    node_limit: int,
    core_name: str | None,
    any_win: bool,
) -> None:
    """Solve DEAL (a code, or 52 cards in layout order as one quoted argument) after MOVES.

    Prints whether the position can be won, a win with the fewest moves (or the best result when it
    cannot), and that line of moves from the position reached. With --any-win, only whether it can be
    won and some win.
    """
    game = game_for(deal, rules)
    _apply(game, moves)
    try:
        started = time.perf_counter()
        solution = solve(game, node_limit=node_limit, any_win=any_win, core_name=core_name)
        seconds = time.perf_counter() - started
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if as_json:
        answer = solution.to_json()
        if any_win:
            answer["search"] = "any win"
            if not solution.winnable:
                answer["best"] = None  # not searched for
        click.echo(json.dumps(answer, ensure_ascii=False))
        return
    console = _console()
    if solution.winnable and any_win:
        console.print(
            f"[bold green]Winnable.[/] A win in {solution.moves} moves (from the start of the deal), "
            "not necessarily the fewest."
        )
    elif solution.winnable:
        console.print(f"[bold green]Winnable[/] in {solution.moves} moves (from the start of the deal).")
    elif any_win and solution.proved:
        console.print("[bold red]Not winnable.[/]")
    elif solution.proved:
        console.print(
            f"[bold red]Not winnable.[/] Best result: {solution.best_left} cards left "
            f"in {solution.best_moves} moves."
        )
    else:
        console.print(
            f"[bold yellow]Unknown:[/] the search stopped after {solution.nodes} states without a win. "
            f"Best found: {solution.best_left} cards left in {solution.best_moves} moves."
        )
    if solution.winnable or not any_win:
        console.print(" ".join(solution.line) or "(no moves)", markup=False)
    console.print(f"[dim]{solution.nodes} states, {seconds:.3f} s, {solution.core} core[/]")


def _census_jobs(first: int | None, last: int | None, deals_file: Path | None, rules: Rules) -> list[Job]:
    if deals_file is not None:
        if first is not None or last is not None:
            raise click.UsageError("give either --from/--to or --deals-file")
        return jobs_for_file(deals_file, rules)
    if first is None or last is None:
        raise click.UsageError("give --from N --to M, or --deals-file F")
    return jobs_for_numbers(first, last, rules)


def _print_summary(console: Console, summary: Summary, title: str) -> None:
    low, high = summary.interval
    console.print(f"[bold]{title}[/]: {summary.deals} deals")
    console.print(
        f"winnable: {summary.winnable} = {100 * summary.share:.2f}% "
        f"(95% Wilson interval {100 * low:.2f}%–{100 * high:.2f}%)"
    )
    if summary.unproved:
        console.print(f"[yellow]unproved (node limit): {summary.unproved}[/]")
    if summary.mean_moves is not None:
        console.print(f"mean shortest win: {summary.mean_moves:.2f} moves")
    table = Table("slowest deals", "seconds", "winnable", "moves")
    for record in summary.slowest:
        key = str(record.get("code") or record.get("deal"))
        table.add_row(key[:60], f"{record['seconds']:.3f}", str(record["winnable"]), str(record["moves"]))
    console.print(table)


@click.command("census")
@click.option("--from", "first", type=int, help="First deal number.")
@click.option("--to", "last", type=int, help="Last deal number (inclusive).")
@click.option("--deals-file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--rules", type=RULES_CHOICE, required=True)
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSON lines, one per deal [default: census-RULES-FROM-TO.jsonl in the current folder].",
)
@click.option("--node-limit", type=click.IntRange(min=1), default=DEFAULT_NODE_LIMIT, show_default=True)
@click.option("--core", "core_name", type=click.Choice(["c", "python"]), help="Force a solver core.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (no progress bar).")
def census_command(
    first: int | None,
    last: int | None,
    deals_file: Path | None,
    rules: str,
    jobs: int,
    out: Path | None,
    node_limit: int,
    core_name: str | None,
    as_json: bool,
) -> None:
    """Solve many deals on every core, resumably, and print what share can be won.

    Each solved deal is appended to --out at once; run the same command again after an interruption and
    only the missing deals are solved.
    """
    rule_set = Rules.named(rules)
    try:
        work = _census_jobs(first, last, deals_file, rule_set)
        core(core_name)
    except (InvalidInput, ValueError) as error:
        raise click.UsageError(str(error)) from error
    defaulted = out is None
    if out is None:
        label = deals_file.stem if deals_file else f"{first}-{last}"
        out = Path(f"census-{rules}-{label}.jsonl")
    console = _console(stderr=as_json)
    if defaulted:
        console.print(f"writing {out} in the current folder (--out chooses the file)")
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]census[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json,
    ) as bar:
        task = bar.add_task("census", total=len(work))

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                records = run_census(
                    work,
                    out,
                    mapper=lambda worker, items: pool.imap_unordered(worker, items, chunksize=8),
                    node_limit=node_limit,
                    core_name=core_name,
                    progress=advance,
                )
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted: solved deals are kept in {out}; run again to resume[/]")
            raise SystemExit(130) from None
    if as_json:
        click.echo(json.dumps({"rules": rules, "out": str(out), **summarise(records).to_json()}))
        return
    console.print(f"{len(records)} deals in {out}, {time.perf_counter() - started:.1f} s wall time")
    _print_summary(console, summarise(records), f"census ({rules})")


@click.command("hint")
@click.argument("code")
@click.argument("moves", nargs=-1)
@click.option("--rules", type=RULES_CHOICE, help="Rules for an explicit layout, or to override a code's.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="The most samples to draw (fewer when the best move is clearly ahead sooner).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@HINT_STRENGTH_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
def hint_command(
    code: str,
    moves: tuple[str, ...],
    rules: str | None,
    samples: int,
    seed: int,
    hint_strength: str,
    as_json: bool,
) -> None:
    """A fair hint after MOVES: the move most likely to win judged only from what the player sees.

    The unseen cards are dealt at random (seeded, reproducible), each move is made in every sample and
    the game is played on without peeking; samples are drawn until the best move is clearly ahead or
    SAMPLES are spent. The chance is one a player who cannot see the hidden cards really has. A weaker
    --hint-strength judges greedy play's move alone (greedy, 400 samples) or every move on one batch
    of 200 samples (quick).
    """
    game = game_for(code, rules)
    _apply(game, moves)
    try:
        hint = hint_at(game, hint_strength.lower(), seed=seed, samples=samples, spend_all=False)
    except IllegalMove as error:
        raise click.UsageError(str(error)) from error
    if as_json:
        click.echo(json.dumps(hint.to_json(), ensure_ascii=False))
        return
    console = _console()
    console.print(
        f"[bold]{hint.move}[/]: wins {100 * hint.chance:.1f}% of {hint.samples} samples "
        f"(95% interval {100 * hint.low:.1f}%–{100 * hint.high:.1f}%)"
    )
    for move, chance in sorted(hint.chances.items(), key=lambda item: -item[1]):
        console.print(f"  {move:>5}  {100 * chance:5.1f}%", markup=False)


def _play_all(
    args: list[tuple[int, Rules, str, int, int, str | None]], jobs: int, step: Callable[[], None]
) -> list[Played]:
    if jobs <= 1:
        results = []
        for item in args:
            results.append(play_number(item))
            step()
        return results
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = []
        for played in pool.imap_unordered(play_number, args, chunksize=4):
            results.append(played)
            step()
        return results


@click.command("autoplay")
@click.option(
    "--player",
    type=click.Choice(PLAYERS),
    required=True,
    help="greedy (Simple), quick (200 samples a move) or fair (Thorough): the hint strengths, weakest first.",
)
@click.option("--from", "first", type=click.IntRange(min=0), required=True)
@click.option("--to", "last", type=click.IntRange(min=0), required=True)
@click.option("--rules", type=RULES_CHOICE, required=True)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=AUTOPLAY_SAMPLES,
    show_default=True,
    help="The fair player's most samples a move (the quick player's, when below 200).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def autoplay_command(
    player: str, first: int, last: int, rules: str, samples: int, seed: int, jobs: int, as_json: bool
) -> None:
    """Play deals FROM..TO without peeking and report the win rate (with the solvable share when the
    shipped census covers the deals: the bound no player can beat)."""
    if first > last:
        raise click.UsageError(f"--from {first} is after --to {last}")
    rule_set = Rules.named(rules)
    core_name: str | None = None
    args = [(n, rule_set, player, samples, seed, core_name) for n in range(first, last + 1)]
    console = _console(stderr=as_json)  # JSON on stdout is the answer alone
    with Progress(
        TextColumn(f"[bold]{player}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json,
    ) as bar:
        task = bar.add_task(player, total=len(args))
        results = _play_all(args, jobs, lambda: bar.advance(task))
    won = sum(1 for played in results if played.won)
    low, high = wilson(won, len(results))
    known = [numbered_result(rule_set, n) for n in range(first, last + 1)]
    solvable = None
    if all(result is not None for result in known):
        solvable = sum(1 for result in known if result is not None and result.winnable)
    report: dict[str, Any] = {
        "player": player,
        "rules": rules,
        "deals": len(results),
        "won": won,
        "win_rate": won / len(results),
        "interval": [low, high],
        "solvable": solvable,
        "samples": {"fair": samples, "quick": min(QUICK_SAMPLES, samples)}.get(player),
    }
    if as_json:
        click.echo(json.dumps(report))
        return
    console.print(
        f"{player} won {won} of {len(results)} = {100 * won / len(results):.2f}% "
        f"(95% Wilson interval {100 * low:.2f}%–{100 * high:.2f}%)"
    )
    if solvable is not None:
        console.print(f"solvable with every card known: {solvable} = {100 * solvable / len(results):.2f}%")


SOLVER_COMMANDS = (solve_command, census_command, hint_command, autoplay_command)
"""The commands ``cli/tripeaks.py`` attaches to the ``tripeaks`` group."""
