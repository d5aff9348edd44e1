"""TriPeaks solver speed: deals per second, median and 99th-percentile time per deal, for Easy and
Classic, with the compiled core and the pure-Python twin on the same deals in one run (wall and CPU time).

Run: ``PYTHONPATH=src python benchmarks/solver.py [--deals N] [--twin-deals M] [--first K]``.

The compiled core solves deals K..K+N-1 of each rule set, once for the full answer (fewest moves of a
win, best result of a lost deal) and once only for whether a win exists; the twin solves the first M of
them (it is far slower) and every answer of the two is compared. The ratio is taken on the deals both
solved. Also printed: the time of fair hints at the start of deals, the third bar of docs/solver.md.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from figures import percentile

from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import compiled_available, fair_hint
from parlour.tripeaks.solver.position import Position
from parlour.tripeaks.solver.solve import Solution, solve_position


def timed(
    positions: list[Position], core_name: str, *, any_win: bool = False
) -> tuple[list[float], list[float], list[Solution]]:
    """Solve every position with one core; return the wall and CPU seconds per deal and the answers.
    ``any_win`` asks only whether a win exists (the first win found depth-first, no best result).

    CPU seconds (this process only) are what a quiet machine would show as wall time: on a shared,
    busy machine the wall time also counts the time other programs had the core.
    """
    wall, cpu, answers = [], [], []
    for position in positions:
        started, started_cpu = time.perf_counter(), time.process_time()
        answers.append(solve_position(position, core_name=core_name, any_win=any_win))
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return wall, cpu, answers


def report(label: str, seconds: list[float]) -> None:
    total = sum(seconds)
    print(
        f"  {label:<12} {len(seconds):>6} deals  {len(seconds) / total:10.1f} deals/s  "
        f"median {1000 * statistics.median(seconds):8.2f} ms  p99 {1000 * percentile(seconds, 0.99):9.2f} ms"
    )


def bench_rules(rules: Rules, first: int, deals: int, twin_deals: int) -> None:
    positions = [
        Position.of_deal(Deal.from_code(DealCode(n, rules)), rules) for n in range(first, first + deals)
    ]
    print(f"{rules.name}: deals {first}..{first + deals - 1}")
    c_wall, c_seconds, c_answers = timed(positions, "c")
    report("C core wall", c_wall)
    report("C core CPU", c_seconds)
    # Only "can it be won?": what a memoised depth-first search answers, the bar's point of comparison.
    _, w_seconds, w_answers = timed(positions, "c", any_win=True)
    report("winnable CPU", w_seconds)
    agree = all(a.winnable == b.winnable for a, b in zip(c_answers, w_answers, strict=True))
    winnable = sum(a.winnable for a in w_answers)
    print(f"  winnable only: {winnable} winnable, the same as the full answers: {agree}")
    twin = positions[:twin_deals]
    if not twin:
        return
    p_wall, p_seconds, p_answers = timed(twin, "python")
    report("twin wall", p_wall)
    report("twin CPU", p_seconds)
    same = all(
        (a.winnable, a.line, a.moves, a.best_left, a.best_moves, a.nodes)
        == (b.winnable, b.line, b.moves, b.best_left, b.best_moves, b.nodes)
        for a, b in zip(c_answers, p_answers, strict=False)
    )
    ratio = sum(p_seconds) / sum(c_seconds[: len(twin)])
    print(f"  twin / C CPU time on the same {len(twin)} deals: {ratio:.1f}x; identical answers: {same}")


def bench_hints(rules: Rules, first: int, count: int) -> None:
    wall, cpu = [], []
    for n in range(first, first + count):
        game = Game.from_code(DealCode(n, rules))
        started, started_cpu = time.perf_counter(), time.process_time()
        fair_hint(game, core_name="c")
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    print(
        f"  fair hint at the deal start ({count} deals): CPU median {statistics.median(cpu):.3f} s, "
        f"max {max(cpu):.3f} s; wall median {statistics.median(wall):.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per rule set for the C core")
    parser.add_argument("--twin-deals", type=int, default=20, help="of those, how many the twin solves too")
    parser.add_argument("--first", type=int, default=1, help="first deal number")
    parser.add_argument("--hints", type=int, default=10, help="deals whose first fair hint is timed")
    args = parser.parse_args()
    if not compiled_available():
        raise SystemExit("the compiled core is not built: pip install -e . (with a C compiler)")
    for rules in (EASY, CLASSIC):
        bench_rules(rules, args.first, args.deals, args.twin_deals)
        if args.hints:
            bench_hints(rules, args.first, args.hints)


if __name__ == "__main__":
    main()
