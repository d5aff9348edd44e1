"""Draw a learning curve written by ``scripts/train_tripeaks.py`` (its CSV) as a PNG.

Run (needs matplotlib): ``.venv/bin/python scripts/plot_learning.py CURVE.csv OUT.png --title "…"``.
The plot shows the share of games won during training and on the evaluation games against the CPU
minutes of training, with the greedy player's share on the same evaluation games as a line when given
(``--baseline``).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curve", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--title", default="Learning curve")
    parser.add_argument("--baseline", type=float, default=None, help="greedy play's share, 0-1")
    args = parser.parse_args()
    with args.curve.open() as file:
        rows = list(csv.DictReader(file))
    minutes = [float(row["cpu_minutes"]) for row in rows]
    figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
    axes.plot(
        minutes, [100 * float(row["training_wins"]) for row in rows], label="training games (sampled moves)"
    )
    axes.plot(
        minutes, [100 * float(row["evaluation_wins"]) for row in rows], label="evaluation games (best move)"
    )
    if args.baseline is not None:
        axes.axhline(100 * args.baseline, color="grey", linestyle="--", label="greedy play, same games")
    axes.set_xlabel("CPU minutes of training (one core)")
    axes.set_ylabel("games won (%)")
    axes.set_title(args.title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out)


if __name__ == "__main__":
    main()
