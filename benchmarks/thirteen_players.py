"""How long each Thirteen computer player thinks: CPU time per decision, against three heuristic players.

Run: ``.venv/bin/python benchmarks/thirteen_players.py [--games 6] [--players random,greedy,…]``.

Each player takes seat 0 of ``--games`` whole matches against three ``heuristic`` players. Every
decision it makes is timed in CPU seconds of this process (what a quiet machine would show as wall
time). The script prints the median, 90th and 99th percentile and the slowest, beside the heuristic's
own figures from the same games as a baseline. The expert's bars (issue 13) are a median of at most
100 ms and a 99th percentile of at most 300 ms. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from figures import percentile

from parlour.thirteen import Match
from parlour.thirteen.bots import PLAYERS, make_bot


def decision_times(name: str, games: int) -> tuple[list[float], list[float]]:
    """Return the CPU seconds of each decision of ``name`` (seat 0) and of the heuristic players."""
    own: list[float] = []
    baseline: list[float] = []
    for game in range(games):
        match = Match(5000 + game)
        bots = [make_bot(name, game), *(make_bot("heuristic", game * 4 + seat) for seat in (1, 2, 3))]
        while not match.over:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            started = time.process_time()
            move = bots[seat].choose(view)
            (own if seat == 0 else baseline).append(time.process_time() - started)
            match.push(move)
    return own, baseline


def line(label: str, seconds: list[float]) -> str:
    return (
        f"  {label:<22} {len(seconds):>6} decisions  median {1000 * statistics.median(seconds):7.2f} ms  "
        f"p90 {1000 * percentile(seconds, 0.90):7.2f} ms  p99 {1000 * percentile(seconds, 0.99):7.2f} ms  "
        f"slowest {1000 * max(seconds):7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", default=",".join(PLAYERS))
    args = parser.parse_args()
    for name in args.players.split(","):
        own, baseline = decision_times(name.strip(), args.games)
        print(f"{name} against three heuristic players, {args.games} matches:")
        print(line(name, own))
        print(line("heuristic (the others)", baseline))


if __name__ == "__main__":
    main()
