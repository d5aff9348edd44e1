"""The TriPeaks players of the hint-strength ladder on the same numbered games, and their decision times.

Run: ``.venv/bin/python benchmarks/fair.py [--from 1] [--to 2000] [--jobs 2] [--samples 3200]``.

Every player sees only what a person sees: greedy play ("Simple"), the quick player (one batch of 200
samples a move, "Quick") and the fair player (400 to 3,200 samples a move, "Thorough"). For Easy and
for Classic it prints each player's win rate with its 95% Wilson interval, each player's lead over the
one below it with a 95% interval from the paired games (the same deals, so the difference is much
sharper than the two intervals suggest), the share an all-seeing solver wins (the census: no player
can beat it), and the CPU time of the quick and fair players' decisions (median, 99th percentile,
slowest) with the compiled core. Last, the pure-Python twin and the compiled core play the same hints,
which must agree, for the ratio of their times. ``--players greedy,learned`` (any of them, in order)
compares the learned player of issue 29 too: its lead over each player below it is printed. Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time

from figures import percentile

from parlour.intervals import Z95, wilson
from parlour.tripeaks import CLASSIC, EASY, DealCode, Game
from parlour.tripeaks.game import PLAYING, WON
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import fair_hint, numbered_result
from parlour.tripeaks.solver.players import PLAYERS, STRENGTH_NAMES, chooser, greedy_move
from parlour.tripeaks.solver.rollout import COMPILED_ROLLOUTS

LEARNED = "learned"
"""The trained network's player (``parlour.tripeaks.learn.player``; needs the learn extra)."""


def play_ladder(args: tuple[int, Rules, int, tuple[str, ...]]) -> list[tuple[bool, list[float]]]:
    """Play deal ``number`` with each of ``players``; return each outcome and the CPU seconds of each
    decision that had a choice."""
    number, rules, samples, players = args
    outcomes = []
    for player in players:
        game = Game.from_code(DealCode(number, rules))
        if player == LEARNED:
            from parlour.tripeaks.learn.player import LearnedTriPeaks  # needs the learn extra (NumPy)

            choose = LearnedTriPeaks(rules.name).choose
        else:
            choose = chooser(player, samples, 0, "c")
        times = []
        while game.status == PLAYING:
            if len(game.legal_actions()) == 1:
                game.apply(game.legal_actions()[0])
                continue
            started = time.process_time()
            move = choose(game)
            times.append(time.process_time() - started)
            game.apply(move)
        outcomes.append((game.status == WON, times))
    return outcomes


def bench_rules(
    rules: Rules, first: int, last: int, jobs: int, samples: int, players: tuple[str, ...]
) -> None:
    work = [(n, rules, samples, players) for n in range(first, last + 1)]
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = pool.map(play_ladder, work, chunksize=8)
    wall = time.perf_counter() - started
    deals = len(results)
    print(f"{rules.name}: games #{first}–#{last} ({deals} deals, {wall:.0f} s wall on {jobs} processes)")
    wins = [[outcomes[level][0] for outcomes in results] for level in range(len(players))]
    for level, player in enumerate(players):
        won = sum(wins[level])
        low, high = wilson(won, deals)
        name = f"{player} ({STRENGTH_NAMES.get(player, 'trained')})"
        print(
            f"  {name:<18} won {won:>5} = {100 * won / deals:5.1f}%  (95% {100 * low:.1f}%–{100 * high:.1f}%)"
        )
    pairs = [(level, level - 1) for level in range(1, len(players))]
    if LEARNED in players and players.index(LEARNED) > 1:
        pairs += [(players.index(LEARNED), other) for other in range(players.index(LEARNED) - 1)]
    for upper_level, lower_level in pairs:
        upper, lower = wins[upper_level], wins[lower_level]
        differences = [int(u) - int(d) for u, d in zip(upper, lower, strict=True)]
        lead = statistics.fmean(differences)
        spread = Z95 * statistics.stdev(differences) / math.sqrt(deals) if deals > 1 else 1.0
        print(
            f"  {players[upper_level]} over {players[lower_level]}: {100 * lead:+.1f} points "
            f"(paired 95% {100 * (lead - spread):+.1f} to {100 * (lead + spread):+.1f})"
        )
    known = [numbered_result(rules, n) for n in range(first, last + 1)]
    if all(result is not None for result in known):
        solvable = sum(1 for result in known if result is not None and result.winnable)
        print(f"  all-seeing solver {solvable} = {100 * solvable / deals:.1f}% (the bound)")
    for level, player in enumerate(players):
        times = [t for outcomes in results for t in outcomes[level][1]]
        if player == "greedy" or not times:
            continue
        print(
            f"  {player} decisions {len(times)}: CPU median {1000 * statistics.median(times):.1f} ms, "
            f"p99 {1000 * percentile(times, 0.99):.1f} ms, slowest {1000 * max(times):.1f} ms"
        )


def bench_twin(rules: Rules, positions: int) -> None:
    """Hints of the compiled core and the twin on the same positions (200 samples each)."""
    c_time = p_time = 0.0
    same = True
    for n in range(1, positions + 1):
        game = Game.from_code(DealCode(n, rules))
        for _ in range(n % 9):
            game.apply(greedy_move(game))
        started = time.process_time()
        compiled = fair_hint(game, samples=200, seed=n, core_name="c")
        c_time += time.process_time() - started
        started = time.process_time()
        python = fair_hint(game, samples=200, seed=n, core_name="python")
        p_time += time.process_time() - started
        same = same and compiled == python
    print(
        f"  twin / C CPU time on {positions} hints of 200 samples: {p_time / c_time:.0f}x; identical: {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=1)
    parser.add_argument("--to", dest="last", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--samples", type=int, default=3200, help="the fair player's most samples a move")
    parser.add_argument("--twin-positions", type=int, default=10)
    parser.add_argument(
        "--players",
        default=",".join(PLAYERS),
        help=f"the players to compare, in order: {', '.join(PLAYERS)}, and {LEARNED} (the trained network)",
    )
    args = parser.parse_args()
    players = tuple(name.strip() for name in args.players.split(","))
    unknown = [name for name in players if name not in (*PLAYERS, LEARNED)]
    if unknown:
        raise SystemExit(f"no such player: {', '.join(unknown)}")
    if COMPILED_ROLLOUTS is None:
        raise SystemExit("the compiled rollout core is not built: pip install -e . (with a C compiler)")
    for rules in (EASY, CLASSIC):
        bench_rules(rules, args.first, args.last, args.jobs, args.samples, players)
        if args.twin_positions:
            bench_twin(rules, args.twin_positions)


if __name__ == "__main__":
    main()
