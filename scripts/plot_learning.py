"""Draw a learning curve written by ``scripts/train_tripeaks.py`` or ``scripts/train_thirteen.py`` (its
CSV) as a PNG.

Run (needs matplotlib): ``.venv/bin/python scripts/plot_learning.py CURVE.csv OUT.png --title "…"``.
For TriPeaks the plot shows the share of games won during training and on the evaluation games against
the CPU minutes of training, with the greedy player's share on the same evaluation games as a line when
given (``--baseline``). For Thirteen it shows the points a round against three heuristic players, with
an even share (1.5) and, when given, another player's figure on the same rounds (``--baseline``).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curve", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--title", default="Learning curve")
    parser.add_argument("--baseline", type=float, default=None, help="greedy play's share, 0-1 (TriPeaks)")
    parser.add_argument("--baseline-label", default="the Strong player, same rounds", help="(Thirteen)")
    args = parser.parse_args()
    with args.curve.open() as file:
        rows = list(csv.DictReader(file))
    minutes = [float(row["cpu_minutes"]) for row in rows]
    figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
    if "points_per_round" in rows[0]:
        axes.plot(minutes, [float(row["points_per_round"]) for row in rows], label="learned (best move)")
        axes.axhline(1.5, color="black", linestyle=":", label="an even share")
        if args.baseline is not None:
            axes.axhline(args.baseline, color="grey", linestyle="--", label=args.baseline_label)
        axes.set_ylabel("points a round against 3 heuristic players")
        finish(axes, figure, args)
        return
    axes.plot(
        minutes, [100 * float(row["training_wins"]) for row in rows], label="training games (sampled moves)"
    )
    axes.plot(
        minutes, [100 * float(row["evaluation_wins"]) for row in rows], label="evaluation games (best move)"
    )
    if args.baseline is not None:
        axes.axhline(100 * args.baseline, color="grey", linestyle="--", label="greedy play, same games")
    axes.set_ylabel("games won (%)")
    finish(axes, figure, args)


def finish(axes: Any, figure: Any, args: argparse.Namespace) -> None:
    """Label the time axis, title and legend, and write the file."""
    axes.set_xlabel("CPU minutes of training (one core)")
    axes.set_title(args.title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out)


if __name__ == "__main__":
    main()
