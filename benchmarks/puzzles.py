"""Puzzle generation (issue 53): TriPeaks puzzles a minute from the numbered games and what the search
rejected on the way, for Easy and Classic; Thirteen puzzles a minute from the computer players'
matches, and how fast the exact end-of-round search proves positions of 8 to 32 cards in all hands.

Run: ``PYTHONPATH=src:benchmarks python benchmarks/puzzles.py [--count N] [--from K] [--matches M]``.

For each rule set, ``numbered_puzzles`` looks at numbered games from K on until it has N puzzles and
prints its census: deals looked at, positions with a choice (candidates), positions with exactly one
winning move, those rejected as unfair (the fair search does not put the answer clearly first) or as
obvious (the natural move with nothing tempting), the puzzles kept, the seconds and puzzles a minute.
For Thirteen, ``match_puzzles`` plays matches from public number K on until it has N puzzles; then
every position of M matches where nobody is out yet is searched, grouped by the cards left in all four
hands: positions, median and largest positions searched and time, and how many the search could not
prove within its limit. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from parlour.thirteen.bots import make_bot
from parlour.thirteen.endgame import Unproved, winning_moves
from parlour.thirteen.game import Match
from parlour.thirteen.puzzles import PLAYERS, ThirteenCensus, match_puzzles
from parlour.thirteen.simulate import play_match
from parlour.tripeaks.solver.puzzles import Census, numbered_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--from", dest="start", type=int, default=1)
    parser.add_argument("--matches", type=int, default=12)
    options = parser.parse_args()
    for rules in ("easy", "classic"):
        census = Census()
        found = numbered_puzzles(rules, options.count, options.start, census)
        figures = census.to_json()
        shares = Counter(puzzle.difficulty for puzzle in found)
        themes = Counter(theme for puzzle in found for theme in puzzle.themes)
        print(
            f"{rules}: {figures['kept']} puzzles from {figures['deals']} deals in {figures['seconds']:.1f} s "
            f"({figures['per_minute']:,.0f} a minute); candidates {figures['candidates']}, one winning move "
            f"{figures['unique']}, rejected unfair {figures['unfair']}, obvious {figures['obvious']}"
        )
        print(f"  difficulty {dict(shares)}; themes {dict(themes)}")
        print("  " + json.dumps(figures))
    census13 = ThirteenCensus()
    found13 = match_puzzles(options.count, options.start, census13)
    figures = census13.to_json()
    print(
        f"thirteen: {figures['kept']} puzzles from {figures['matches']} matches "
        f"in {figures['seconds']:.1f} s "
        f"({figures['per_minute']:,.0f} a minute); candidates {figures['candidates']}, one winning move "
        f"{figures['unique']}, plain {figures['plain']}, unproved {figures['unproved']}"
    )
    print(
        f"  difficulty {dict(Counter(p.difficulty for p in found13))}; "
        f"themes {dict(Counter(t for p in found13 for t in p.themes))}"
    )
    reach(options.matches, options.start)


def reach(matches: int, start: int) -> None:
    """Print how the exact end-of-round search fares by the cards left in all hands."""
    groups: dict[int, list[tuple[int, float]]] = {}
    unproved: Counter[int] = Counter()
    for number in range(start, start + matches):
        played = play_match(
            [make_bot(name, seed=number * 4 + seat) for seat, name in enumerate(PLAYERS)], number
        )
        replay = Match(number)
        for move in played.moves:
            state = replay.round
            cards = sum(hand.bit_count() for hand in state.hands)
            if state.turn is not None and not state.finished and 8 <= cards <= 32:
                bucket = cards // 4 * 4
                began = time.perf_counter()
                try:
                    _, nodes = winning_moves(state, node_limit=2_000_000)
                    groups.setdefault(bucket, []).append((nodes, time.perf_counter() - began))
                except Unproved:
                    unproved[bucket] += 1
            replay.push(move)
    print(
        "  exact search by cards left in all hands "
        "(positions; median/largest positions searched; median/largest ms):"
    )
    for bucket in sorted(groups):
        nodes = sorted(n for n, _ in groups[bucket])
        times = sorted(t * 1000 for _, t in groups[bucket])
        print(
            f"  {bucket}-{bucket + 3} cards: {len(nodes)} positions; "
            f"{nodes[len(nodes) // 2]:,} / {nodes[-1]:,} "
            f"searched; {times[len(times) // 2]:.1f} / {times[-1]:.0f} ms; unproved {unproved[bucket]}"
        )


if __name__ == "__main__":
    main()
