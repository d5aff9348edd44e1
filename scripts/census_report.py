"""Print the census figures of docs/solver.md as Markdown from census output files.

Run: ``PYTHONPATH=src python scripts/census_report.py easy=EASY.jsonl classic=CLASSIC.jsonl``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
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
            f"| {name} | {s.deals} | {s.winnable} | {100 * s.share:.2f}% "
            f"| {100 * low:.2f}%–{100 * high:.2f}% | {s.mean_moves:.2f} | {s.unproved} |"
        )
    print("\nShortest wins (moves: share of the winnable deals)\n")
    print_shares("moves", {name: (s.moves, s.winnable) for name, s in summaries.items()})
    print("\nLost deals: fewest peak cards left at best (share of the lost deals)\n")
    print_shares("cards left", {name: (s.best_left, s.deals - s.winnable) for name, s in summaries.items()})


def print_shares(label: str, columns: dict[str, tuple[Mapping[int, int], int]]) -> None:
    """Print a Markdown table: one row per value, one column per census, each cell count / total."""
    values = sorted({value for counts, _ in columns.values() for value in counts})
    print(f"| {label} | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for value in values:
        cells = [f"{100 * counts.get(value, 0) / max(1, total):.2f}%" for counts, total in columns.values()]
        print(f"| {value} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
