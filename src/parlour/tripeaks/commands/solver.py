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
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from parlour.cli.options import LANG_OPTION
from parlour.errors import IllegalMove, InvalidInput
from parlour.i18n import decimal, gettext_for, percent
from parlour.intervals import wilson
from parlour.tripeaks import Deal, DealCode, Game, Rules
from parlour.tripeaks.commands.options import HINT_STRENGTH_OPTION
from parlour.tripeaks.definition import deal_from
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
from parlour.tripeaks.solver.solve import DEFAULT_NODE_LIMIT, Solution
from parlour.tripeaks.texts import rules_name

DOMAIN = "solver"
RULES_CHOICE = click.Choice(["easy", "classic"], case_sensitive=False)


NODE_LIMIT_OPTION = click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=DEFAULT_NODE_LIMIT,
    show_default=True,
    help="Stop a search after this many states and answer 'unknown' (a deal that is hard to prove).",
)
CORE_OPTION = click.option(
    "--core", "core_name", type=click.Choice(["c", "python"]), help="Force a solver core."
)
JOBS_OPTION = click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=os.cpu_count() or 1,
    show_default=True,
    help="Processes working at once (one per core by default).",
)
DEAL_RULES_OPTION = click.option(
    "--rules", type=RULES_CHOICE, help="Rules for an explicit layout, or to override a code's."
)
HINT_SAMPLES_OPTION = click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="The most samples of a hint (fewer when the best move is clearly ahead sooner).",
)
SEED_OPTION = click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the random samples (the same seed, the same answer).",
)
"""Options several solver commands share."""


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


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


def code_for(text: str, rules_name: str | None, param_hint: str = "CODE") -> DealCode:
    """The deal code ``text`` names: a deal code (under ``rules_name``'s King–Ace rule when given) or a
    numbered game's number (under ``rules_name``, Easy by default).

    Raises:
        click.BadParameter: the text is neither, or the number is not a numbered game's.
    """
    typed = text.strip()
    try:
        if typed.isascii() and typed.isdigit():
            return deal_from(typed, Rules.named(rules_name or "easy"))[0]
        code = DealCode.parse(typed)
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint=param_hint) from error
    if rules_name is None:
        return code
    linked = Rules.named(rules_name).king_ace_linked
    return DealCode(code.number, replace(code.rules, king_ace_linked=linked))


def game_for(text: str, rules_name: str | None) -> Game:
    """A game from a deal code, a numbered game's number or an explicit layout (52 or 53 cards in layout
    order, ``-`` for an empty discard pile). A layout or a number is played under ``rules_name`` (Easy by
    default); a code under its own rules, with ``rules_name``'s King–Ace rule when given.

    Raises:
        click.BadParameter: the text is none of these.
    """
    if len(text.replace(",", " ").split()) <= 1:
        return Game.from_code(code_for(text, rules_name, "DEAL"))
    try:
        deal = Deal.parse(text)
    except InvalidInput as error:
        raise click.BadParameter(str(error), param_hint="DEAL") from error
    base = Rules.named(rules_name or "easy")
    rules = Rules(
        king_ace_linked=base.king_ace_linked, joker=deal.has_joker, empty_discard=deal.discard is None
    )
    return Game(deal, rules)


def _apply(game: Game, moves: tuple[str, ...]) -> None:
    for index, move in enumerate(moves, start=1):
        try:
            game.apply(move)
        except (IllegalMove, InvalidInput) as error:
            raise click.BadParameter(f"move {index} {move!r}: {error}", param_hint="MOVE") from error


@click.command("solve")
@click.argument("deal")
@click.argument("moves", nargs=-1)
@DEAL_RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@NODE_LIMIT_OPTION
@CORE_OPTION
@click.option(
    "--any-win",
    is_flag=True,
    help="Only whether it can be won: the first win found, not the fewest moves (much faster).",
)
@LANG_OPTION
def solve_command(
    deal: str,
    moves: tuple[str, ...],
    rules: str | None,
    as_json: bool,
    node_limit: int,
    core_name: str | None,
    any_win: bool,
    lang: str,
) -> None:
    """Solve DEAL (a code, a numbered game's number, or 52 cards in layout order as one quoted argument)
    after MOVES.

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
    _console().print(Text(_solution_text(solution, any_win, lang), style=_solution_style(solution)))
    if solution.winnable or not any_win:
        _console().print(" ".join(solution.line) or _(lang, "(no moves)"), markup=False)
    line = _(lang, "{nodes} states, {seconds} s, {core} core").format(
        nodes=solution.nodes, seconds=decimal(seconds, lang, 3), core=solution.core
    )
    _console().print(Text(line, style="dim"))


def _solution_style(solution: Solution) -> str:
    return "bold green" if solution.winnable else "bold red" if solution.proved else "bold yellow"


def _solution_text(solution: Solution, any_win: bool, lang: str) -> str:
    """What the search found, in ``lang``: winnable (in how many moves), not winnable, or unknown."""
    if solution.winnable and any_win:
        text = _(
            lang, "Winnable: a win in {moves} moves (from the start of the deal), not necessarily the fewest."
        )
        return text.format(moves=solution.moves)
    if solution.winnable:
        return _(lang, "Winnable in {moves} moves (from the start of the deal).").format(moves=solution.moves)
    if any_win and solution.proved:
        return _(lang, "Not winnable.")
    best = {"left": solution.best_left, "moves": solution.best_moves}
    if solution.proved:
        return _(lang, "Not winnable. Best result: {left} cards left in {moves} moves.").format(**best)
    text = _(
        lang,
        "Unknown: the search stopped after {nodes} states without a win. "
        "Best found: {left} cards left in {moves} moves.",
    )
    return text.format(nodes=solution.nodes, **best)


def _census_jobs(first: int | None, last: int | None, deals_file: Path | None, rules: Rules) -> list[Job]:
    if deals_file is not None:
        if first is not None or last is not None:
            raise click.UsageError("give either --from/--to or --deals-file")
        return jobs_for_file(deals_file, rules)
    if first is None or last is None:
        raise click.UsageError("give --from N --to M, or --deals-file F")
    return jobs_for_numbers(first, last, rules)


def _print_summary(console: Console, summary: Summary, rules: str, lang: str) -> None:
    low, high = summary.interval
    title = _(lang, "Census ({rules}): {deals} deals").format(
        rules=rules_name(rules, lang), deals=summary.deals
    )
    console.print(Text(title, style="bold"))
    console.print(
        _(lang, "winnable: {count} = {share} (95% Wilson interval {low}–{high})").format(
            count=summary.winnable,
            share=percent(summary.share, lang, 2),
            low=percent(low, lang, 2),
            high=percent(high, lang, 2),
        ),
        markup=False,
    )
    if summary.unproved:
        unproved = _(lang, "unproved (node limit): {count}").format(count=summary.unproved)
        console.print(Text(unproved, style="yellow"))
    if summary.mean_moves is not None:
        mean = _(lang, "mean shortest win: {moves} moves").format(moves=decimal(summary.mean_moves, lang, 2))
        console.print(mean, markup=False)
    table = Table(_(lang, "slowest deals"), _(lang, "seconds"), _(lang, "winnable"), _(lang, "moves"))
    yes, no = _(lang, "yes"), _(lang, "no")
    for record in summary.slowest:
        key = str(record.get("code") or record.get("deal"))
        winnable = yes if record["winnable"] else no
        table.add_row(key[:60], decimal(record["seconds"], lang, 3), winnable, str(record["moves"]))
    console.print(table)


@click.command("census")
@click.option("--from", "first", type=int, help="First deal number.")
@click.option("--to", "last", type=int, help="Last deal number (inclusive).")
@click.option(
    "--deals-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Solve the deals of this file instead: one a line, a deal code or the cards in layout order "
    "(# starts a comment).",
)
@click.option("--rules", type=RULES_CHOICE, required=True, help="Easy (King and Ace linked) or Classic.")
@JOBS_OPTION
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSON lines, one per deal [default: census-RULES-FROM-TO.jsonl in the current folder].",
)
@NODE_LIMIT_OPTION
@CORE_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (no progress bar).")
@LANG_OPTION
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
    lang: str,
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
        console.print(
            _(lang, "writing {out} in the current folder (--out chooses the file)").format(out=out),
            markup=False,
        )
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]census[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json or not console.is_terminal,
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
            stopped = _(lang, "interrupted: solved deals are kept in {out}; run again to resume").format(
                out=out
            )
            console.print(Text(stopped, style="yellow"))
            raise SystemExit(130) from None
    if as_json:
        click.echo(json.dumps({"rules": rules, "out": str(out), **summarise(records).to_json()}))
        return
    wall = decimal(time.perf_counter() - started, lang, 1)
    console.print(
        _(lang, "{count} deals in {out}, {seconds} s wall time").format(
            count=len(records), out=out, seconds=wall
        ),
        markup=False,
    )
    _print_summary(console, summarise(records), rules, lang)


@click.command("hint")
@click.argument("code")
@click.argument("moves", nargs=-1)
@DEAL_RULES_OPTION
@HINT_SAMPLES_OPTION
@SEED_OPTION
@HINT_STRENGTH_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
@LANG_OPTION
def hint_command(
    code: str,
    moves: tuple[str, ...],
    rules: str | None,
    samples: int,
    seed: int,
    hint_strength: str,
    as_json: bool,
    lang: str,
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
    text = _(lang, "{move}: wins {chance} of {samples} samples (95% interval {low}–{high})").format(
        move=hint.move,
        chance=percent(hint.chance, lang),
        samples=hint.samples,
        low=percent(hint.low, lang),
        high=percent(hint.high, lang),
    )
    console.print(Text(text, style="bold"))
    for move, chance in sorted(hint.chances.items(), key=lambda item: -item[1]):
        console.print(f"  {move:>5}  {percent(chance, lang):>6}", markup=False)


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
@click.option("--from", "first", type=click.IntRange(min=0), required=True, help="First deal number.")
@click.option("--to", "last", type=click.IntRange(min=0), required=True, help="Last deal number (inclusive).")
@click.option("--rules", type=RULES_CHOICE, required=True, help="Easy (King and Ace linked) or Classic.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=AUTOPLAY_SAMPLES,
    show_default=True,
    help="The fair player's most samples a move (the quick player's, when below 200).",
)
@SEED_OPTION
@JOBS_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (no progress bar).")
@LANG_OPTION
def autoplay_command(
    player: str,
    first: int,
    last: int,
    rules: str,
    samples: int,
    seed: int,
    jobs: int,
    as_json: bool,
    lang: str,
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
        disable=as_json or not console.is_terminal,
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
    text = _(lang, "{player} won {won} of {deals} = {rate} (95% Wilson interval {low}–{high})")
    rate = percent(won / len(results), lang, 2)
    console.print(
        text.format(
            player=player,
            won=won,
            deals=len(results),
            rate=rate,
            low=percent(low, lang, 2),
            high=percent(high, lang, 2),
        ),
        markup=False,
    )
    if solvable is not None:
        share = percent(solvable / len(results), lang, 2)
        console.print(
            _(lang, "solvable with every card known: {count} = {share}").format(count=solvable, share=share),
            markup=False,
        )


SOLVER_COMMANDS = (solve_command, census_command, hint_command, autoplay_command)
"""The commands ``cli/tripeaks.py`` attaches to the ``tripeaks`` group."""
