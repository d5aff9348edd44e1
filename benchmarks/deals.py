"""Dealing speed of the two generators (docs/deals.md): decks a second from generator 1 (SplitMix64, a
deal number) and generator 2 (HMAC-SHA-256, a 128-bit seed), in the same run, and their ratio.

Run: ``PYTHONPATH=src python benchmarks/deals.py [--decks N]``. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from parlour.deal import secret_deck, shuffled_deck


def rate(deal: Callable[[int], object], count: int) -> float:
    """Return decks a second of ``deal`` over ``count`` deals (the best of three runs)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for index in range(count):
            deal(index)
        best = min(best, time.perf_counter() - started)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=20_000)
    args = parser.parse_args()
    seeds = [os.urandom(16) for _ in range(args.decks)]
    first = rate(shuffled_deck, args.decks)
    second = rate(lambda index: secret_deck(seeds[index], "TP2 deal"), args.decks)
    print(f"generator 1 (SplitMix64):   {first:10,.0f} decks a second")
    print(f"generator 2 (HMAC-SHA-256): {second:10,.0f} decks a second ({first / second:.2f}x the time)")


if __name__ == "__main__":
    main()
