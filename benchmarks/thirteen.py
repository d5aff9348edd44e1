"""Thirteen speed: legal-move generation calls per second on random positions, whole bot games per second.

Run: ``PYTHONPATH=src python benchmarks/thirteen.py [--positions N] [--games N]``. The figures are
printed, never asserted. The baseline in the same run is a brute-force generator (every subset of the
hand classified and compared), so the ratio says what the bitmask generator buys on this machine.
"""

from __future__ import annotations

import argparse
import random
import time

from parlour.thirteen import Match
from parlour.thirteen.bots import make_bot
from parlour.thirteen.combos import Shape, shape_beats, shape_of
from parlour.thirteen.moves import legal_plays
from parlour.thirteen.rules import STANDARD
from parlour.thirteen.simulate import play_match


def random_positions(count: int, seed: int) -> list[tuple[int, Shape | None]]:
    """Positions met in real play: the hand and table of the seat to move in random games."""
    rng = random.Random(seed)
    positions: list[tuple[int, Shape | None]] = []
    while len(positions) < count:
        match = Match(rng.randrange(26**7))
        while not match.over and len(positions) < count:
            seat = match.turn
            assert seat is not None
            positions.append((match.round.hands[seat], match.round.table_shape))
            match.push(rng.choice(match.legal_moves(seat)))
    return positions


def brute_force(hand: int, table: Shape | None) -> list[int]:
    """The baseline: classify every subset of the hand."""
    found = []
    sub = hand
    while sub:
        shape = shape_of(sub)
        if shape is not None and shape_beats(shape, table, STANDARD):
            found.append(sub)
        sub = (sub - 1) & hand
    return found


def per_second(calls: int, seconds: float) -> str:
    return f"{calls / seconds:,.0f}/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()

    positions = random_positions(args.positions, seed=1)
    legal_plays.cache_clear()
    start = time.perf_counter()
    total = 0
    for hand, table in positions:
        total += len(legal_plays.__wrapped__(hand, table, STANDARD, 0))
    fast = time.perf_counter() - start
    sample = positions[: max(1, len(positions) // 20)]
    start = time.perf_counter()
    for hand, table in sample:
        brute_force(hand, table)
    slow = time.perf_counter() - start
    print(f"legal-move generation, {len(positions):,} positions from random games, cache off:")
    print(
        f"  bitmask generator   {per_second(len(positions), fast):>12}  "
        f"({total / len(positions):.1f} plays each)"
    )
    print(
        f"  brute force         {per_second(len(sample), slow):>12}  (baseline on {len(sample):,} positions)"
    )
    print(f"  speed-up            {(slow / len(sample)) / (fast / len(positions)):>11.1f}x")

    print(f"whole games to 10 points ({args.games} each):")
    for names in (("random",) * 4, ("greedy",) * 4, ("heuristic",) * 4):
        bots = [make_bot(name, seat) for seat, name in enumerate(names)]
        start = time.perf_counter()
        rounds = moves = 0
        for game in range(args.games):
            match = play_match(bots, 1000 + game)
            rounds += len(match.results)
            moves += len(match.moves)
        seconds = time.perf_counter() - start
        print(
            f"  4 x {names[0]:<10} {args.games / seconds:>8.1f} games/s  "
            f"{rounds / seconds:>8.1f} rounds/s  {moves / seconds:>10,.0f} moves/s"
        )


if __name__ == "__main__":
    main()
