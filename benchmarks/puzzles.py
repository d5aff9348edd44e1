"""TriPeaks puzzle generation (issue 53): puzzles a minute from the numbered games, and what the search
rejected on the way, for Easy and Classic.

Run: ``PYTHONPATH=src python benchmarks/puzzles.py [--count N] [--from K]``.

For each rule set, ``numbered_puzzles`` looks at numbered games from K on until it has N puzzles and
prints its census: deals looked at, positions with a choice (candidates), positions with exactly one
winning move, those rejected as unfair (the fair search does not put the answer clearly first) or as
obvious (the natural move with nothing tempting), the puzzles kept, the seconds and puzzles a minute.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from parlour.tripeaks.solver.puzzles import Census, numbered_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--from", dest="start", type=int, default=1)
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


if __name__ == "__main__":
    main()
