"""TriPeaks reviews: the CPU time of reviewing whole games, median and worst, for Easy and Classic, and
the share of it the exact verdicts take (the rest is the Thorough hint at each choice).

Run: ``PYTHONPATH=src python benchmarks/review.py [--games N] [--first K]``.

The games are numbered deals K..K+N-1 of each rule set played to their end by the Fair player (the
Thorough hint's own move at each choice, as a careful person might play), each reviewed in full
(``review_game``, seed 0) and then with the exact verdicts only. CPU time of this process, so that
another job on the machine does not count; figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from figures import percentile

from parlour.tripeaks import CLASSIC, EASY, DealCode, Game
from parlour.tripeaks.game import PLAYING
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import compiled_available
from parlour.tripeaks.solver.players import hint_at
from parlour.tripeaks.solver.review import review_game


def played(number: int, rules: Rules) -> tuple[Game, list[str]]:
    """Deal ``number`` under ``rules`` and the moves of the Fair player to the game's end."""
    start = Game.from_code(DealCode(number, rules))
    game = start.copy()
    moves: list[str] = []
    while game.status == PLAYING:
        legal = game.legal_actions()
        move = legal[0] if len(legal) == 1 else hint_at(game, "fair", seed=number, spend_all=False).move
        game.apply(move)
        moves.append(move)
    return start, moves


def cpu(call: object) -> float:
    started = time.process_time()
    call()  # type: ignore[operator]
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of each rule set")
    parser.add_argument("--first", type=int, default=1, help="the first deal number")
    args = parser.parse_args()
    if not compiled_available():
        sys.exit("the compiled solver cores are not built: reviews would take the twin's minutes")
    print(f"{args.games} games of each rule set, deals {args.first}..{args.first + args.games - 1}")
    for rules in (EASY, CLASSIC):
        full: list[float] = []
        exact: list[float] = []
        lengths: list[int] = []
        for number in range(args.first, args.first + args.games):
            start, moves = played(number, rules)
            lengths.append(len(moves))
            full.append(cpu(lambda start=start, moves=moves: review_game(start, moves)))
            exact.append(cpu(lambda start=start, moves=moves: review_game(start, moves, honest=False)))
        print(
            f"{rules.name:8} moves a game median {statistics.median(lengths):.0f}, most {max(lengths)}; "
            f"review CPU median {statistics.median(full):.3f} s, p99 {percentile(full, 0.99):.3f} s, "
            f"worst {max(full):.3f} s; exact verdicts alone median {statistics.median(exact):.3f} s "
            f"({statistics.median(exact) / statistics.median(full):.0%} of a review)"
        )


if __name__ == "__main__":
    main()
