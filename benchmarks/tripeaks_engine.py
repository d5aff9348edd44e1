"""TriPeaks engine speed: random playouts through the checked actions against the unchecked push/pop path.

Prints actions per second for each path and their ratio, measured in the same run on the same deals and
the same random choices (the baseline is the checked path). Usage:
``python benchmarks/tripeaks_engine.py [DEALS]`` (default 300 deals).
"""

from __future__ import annotations

import random
import sys
import time

from parlour.tripeaks import EASY, DealCode, Game


def checked_playout(game: Game, rng: random.Random) -> int:
    actions = 0
    while game.status == "playing":
        game.apply(rng.choice(game.legal_actions()))
        actions += 1
    return actions


def unchecked_playout(game: Game, rng: random.Random) -> int:
    actions = 0
    while game.status == "playing":
        fitting = game.fitting_positions()
        choices: list[int] = [*fitting, -1] if game.stock_count else fitting
        choice = rng.choice(choices)
        if choice < 0:
            game.push_draw()
        else:
            game.push_remove(choice)
        actions += 1
    for _ in range(actions):  # search takes everything back again
        game.pop()
    return actions


def measure(deals: int) -> None:
    games = [Game.from_code(DealCode(number, EASY)) for number in range(1, deals + 1)]
    results: dict[str, tuple[int, float]] = {}
    for name, playout in (("checked apply()", checked_playout), ("unchecked push/pop", unchecked_playout)):
        rng = random.Random(2026)
        copies = [game.copy() for game in games]
        start = time.perf_counter()
        actions = sum(playout(game, rng) for game in copies)
        results[name] = (actions, time.perf_counter() - start)
    base_actions, base_seconds = results["checked apply()"]
    base_rate = base_actions / base_seconds
    print(f"{deals} deals, random playouts (Easy)")
    for name, (actions, seconds) in results.items():
        rate = actions / seconds
        figures = f"{actions:>7} actions  {seconds:6.3f} s  {rate:>10,.0f} actions/s"
        print(f"  {name:<20} {figures}  x{rate / base_rate:.2f}")
    start = time.perf_counter()
    for number in range(1, deals + 1):
        Game.from_code(DealCode(number, EASY))
    seconds = time.perf_counter() - start
    print(f"  dealing: {deals / seconds:,.0f} deals/s (code → shuffled deck → Game)")


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
