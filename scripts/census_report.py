"""Print the census figures of docs/solver.md as Markdown from census output files.

Run: ``PYTHONPATH=src python scripts/census_report.py easy=EASY.jsonl classic=CLASSIC.jsonl``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from parlour.tripeaks.solver.census import summarise


def main() -> None:
    summaries = {}
    for argument in sys.argv[1:]:
        name, path = argument.split("=", 1)
        records = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        summaries[name] = summarise(records)
    print("| rules | deals | winnable | share | 95% Wilson interval | mean shortest win | unproved |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for name, s in summaries.items():
        low, high = s.interval
        print(
            f"| {name} | {s.deals} | {s.winnable} | {100 * s.share:.2f}% | {100 * low:.2f}%–{100 * high:.2f}% "
            f"| {s.mean_moves:.2f} | {s.unproved} |"
        )
    moves = sorted({m for s in summaries.values() for m in s.moves})
    print("\nShortest wins (moves: share of the winnable deals)\n")
    print("| moves | " + " | ".join(summaries) + " |")
    print("|---:|" + "---:|" * len(summaries))
    for m in moves:
        cells = [f"{100 * s.moves[m] / max(1, s.winnable):.2f}%" for s in summaries.values()]
        print(f"| {m} | " + " | ".join(cells) + " |")
    lefts = sorted({left for s in summaries.values() for left in s.best_left})
    print("\nLost deals: fewest peak cards left at best (share of the lost deals)\n")
    print("| cards left | " + " | ".join(summaries) + " |")
    print("|---:|" + "---:|" * len(summaries))
    for left in lefts:
        cells = [f"{100 * s.best_left[left] / max(1, s.deals - s.winnable):.2f}%" for s in summaries.values()]
        print(f"| {left} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
