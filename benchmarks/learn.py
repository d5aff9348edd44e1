"""Steps a second of the learning environments beside the engines' own steps, on one core.

Run: ``.venv/bin/python benchmarks/learn.py [--steps 20000] [--seed 0]``.

Each environment is driven by random legal actions (Python's ``random`` choosing from its action
mask) for ``--steps`` steps, resetting at each episode's end; the engine is driven the same way in the
same run through its own API (its legal moves, then the checked move), with no observation built. The
script prints the steps a second of each and the ratio (issue 29 asks for at most 2x the engine's time
per step), each the fastest of ``--repeats`` runs taken in turns, and as its last line
``learn: tripeaks env S1 steps/s (engine E1), thirteen env S2 steps/s (engine E2)``. CPU time of this
process; figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from parlour.thirteen import Match
from parlour.thirteen.learn.env import ThirteenEnv
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game
from parlour.tripeaks.learn.env import TriPeaksEnv
from parlour.tripeaks.rules import EASY


def tripeaks_engine(steps: int, seed: int) -> float:
    """Return the CPU seconds of ``steps`` random legal moves through the TriPeaks engine."""
    rng = random.Random(seed)
    started = time.process_time()
    done = 0
    while done < steps:
        game = Game(Deal.from_number(rng.randrange(26**7), EASY), EASY)
        while done < steps:
            legal = game.legal_actions()
            if not legal:
                break
            game.apply(rng.choice(legal))
            done += 1
    return time.process_time() - started


def tripeaks_env(steps: int, seed: int) -> float:
    """Return the CPU seconds of ``steps`` random legal steps of the Gymnasium environment."""
    rng = random.Random(seed)
    env = TriPeaksEnv()
    started = time.process_time()
    observation, _ = env.reset(seed=seed)
    for _ in range(steps):
        observation, _, terminated, _, _ = env.step(
            rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        )
        if terminated:
            observation, _ = env.reset()
    return time.process_time() - started


def thirteen_engine(steps: int, seed: int) -> float:
    """Return the CPU seconds of ``steps`` random legal moves through the Thirteen engine (each from
    the view of the seat to move, as an agent sees it)."""
    rng = random.Random(seed)
    started = time.process_time()
    done = 0
    while done < steps:
        match = Match(rng.randrange(26**7))
        while done < steps and match.turn is not None:
            seat = match.turn
            match.apply(seat, rng.choice(match.view(seat).legal_moves()))
            done += 1
    return time.process_time() - started


def thirteen_env(steps: int, seed: int) -> float:
    """Return the CPU seconds of ``steps`` random legal steps of the PettingZoo environment."""
    rng = random.Random(seed)
    env = ThirteenEnv()
    started = time.process_time()
    env.reset(seed=seed)
    done = 0
    while done < steps:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rates: list[tuple[float, float]] = []
    for name, engine, environment in (
        ("TriPeaks", tripeaks_engine, tripeaks_env),
        ("Thirteen", thirteen_engine, thirteen_env),
    ):
        # Engine and environment take turns, and each keeps its fastest run: a busy moment of the
        # machine slows one run, not the comparison.
        # Each turn deals new games (the engine keeps caches of legal plays, which replayed deals would
        # find warm), as training does.
        raw = wrapped = float("inf")
        for repeat in range(args.repeats):
            raw = min(raw, engine(args.steps, args.seed + repeat))
            wrapped = min(wrapped, environment(args.steps, args.seed + repeat))
        print(
            f"{name}: engine {args.steps / raw:,.0f} steps/s, environment {args.steps / wrapped:,.0f} steps/s"
            f" ({wrapped / raw:.2f}x the engine's time a step)"
        )
        rates.append((args.steps / wrapped, args.steps / raw))
    (tripeaks, tripeaks_raw), (thirteen, thirteen_raw) = rates
    print(
        f"learn: tripeaks env {tripeaks:.0f} steps/s (engine {tripeaks_raw:.0f}), "
        f"thirteen env {thirteen:.0f} steps/s (engine {thirteen_raw:.0f})"
    )


if __name__ == "__main__":
    main()
