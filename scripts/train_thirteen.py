"""Train the learned Thirteen player: PPO with action masks on ``thirteen_v0``, by self-play, on CPU.

Run (needs PyTorch for CPU: ``.venv/bin/pip install torch==2.13.0``)::

    .venv/bin/python scripts/train_thirteen.py --minutes 45 --seed 0 \\
        --out src/parlour/thirteen/bots/data/thirteen_learned.npz --curve docs/plots/learning-thirteen.csv

One network (``parlour.thirteen.observation.features`` inputs, hidden layers of 256 and 128, 453 action
scores and a value) plays every agent seat of ``--envs`` rounds at once, one core. A quarter of the
tables are four copies of it (self-play); the others seat it against the ladder's players, so it meets
styles other than its own: three Strong (``heuristic``) players, three ``keeper`` players, or two copies
of it with a Casual (``greedy``) and a Strong player. Illegal actions are masked out of the policy. A
round is an episode; every decision of a seat is credited with the seat's points of the round less
1.5 (an even share), and its advantage is that less the value the network expects. Every
``--eval-every`` updates the policy, taking its best action, plays ``--eval-rounds`` rounds against
three Strong players (seeds outside those the measurements use), and the weights of the best evaluation
are kept. At the end the weights are written as NumPy arrays, played without PyTorch by
``parlour.thirteen.bots.learned``, and the learning curve as CSV; ``scripts/plot_learning.py`` draws it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from masked_ppo import Policy, export, finish, layers, ppo_update
from torch import nn

from parlour.thirteen.actions import ACTIONS, action_of
from parlour.thirteen.bots import make_bot
from parlour.thirteen.game import Match
from parlour.thirteen.learn.env import MATCH_NUMBERS, ThirteenEnv, legal_mask
from parlour.thirteen.observation import FEATURES, features, observe
from parlour.thirteen.round import SEATS

EVEN_SHARE = 1.5
TABLES: list[dict[int, str]] = [
    {},
    {1: "heuristic", 2: "heuristic", 3: "heuristic"},
    {1: "keeper", 2: "keeper", 3: "keeper"},
    {1: "greedy", 3: "heuristic"},
]
"""The computer players' seats at each kind of training table (the other seats are the network's)."""
EVALUATION_SEEDS = range(900_000, 900_000 + 100_000)


def seen(env: ThirteenEnv) -> tuple[list[float], Any]:
    """Return the acting agent's inputs and legal actions."""
    observation = env.observe(env.agent_selection)
    return features(observation["observation"].tolist()), observation["action_mask"]


def evaluate(policy: Policy, rounds: int) -> tuple[float, float]:
    """Return the policy's points a round and share of first places, best action each move, against
    three Strong players over ``rounds`` fixed rounds."""
    env = ThirteenEnv(opponents={1: "heuristic", 2: "heuristic", 3: "heuristic"}, episode="round")
    points = firsts = 0.0
    for seed in EVALUATION_SEEDS[:rounds]:
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            x, mask = seen(env)
            with torch.no_grad():
                logits, _ = policy(torch.tensor([x]), torch.from_numpy(mask.astype(bool)).unsqueeze(0))
            env.step(int(logits.argmax()))
        earned = env.rewards["player_0"]
        points += earned
        firsts += earned == 3.0
    return points / rounds, firsts / rounds


def imitate(policy: Policy, teacher: str, minutes: float, seed: int, batch: int) -> int:
    """Teach the policy the ``teacher`` computer player's moves (cross-entropy on its actions, all four
    seats of rounds it plays against itself) and the value of its positions (the points the seat then
    took), for ``minutes`` of CPU; return the decisions seen."""
    bots = [make_bot(teacher, seed * SEATS + seat) for seat in range(SEATS)]
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    began = time.process_time()
    seen_decisions = 0
    while time.process_time() - began < 60 * minutes:
        xs: list[list[float]] = []
        masks: list[Any] = []
        actions: list[int] = []
        returns: list[float] = []
        while len(actions) < batch:
            match = Match(int(rng.integers(MATCH_NUMBERS)))
            taken: list[tuple[int, int]] = []  # (seat, index into the batch)
            while not match.results:
                seat = match.turn
                assert seat is not None
                view = match.view(seat)
                move = bots[seat].choose(view)
                xs.append(features(observe(view)))
                masks.append(legal_mask(view))
                actions.append(action_of(move.mask))
                taken.append((seat, len(actions) - 1))
                match.push(move)
            points = match.results[0].points
            returns += [0.0] * (len(actions) - len(returns))
            for seat, index in taken:
                returns[index] = points[seat] - EVEN_SHARE
        seen_decisions += len(actions)
        batch_x, batch_mask = torch.tensor(xs), torch.from_numpy(np.stack(masks).astype(bool))
        batch_action, batch_ret = torch.tensor(actions), torch.tensor(returns)
        for _ in range(2):
            order = torch.randperm(len(actions))
            for begin in range(0, len(actions), 512):
                part = order[begin : begin + 512]
                logits, value = policy(batch_x[part], batch_mask[part])
                loss = (
                    nn.functional.cross_entropy(logits, batch_action[part])
                    + 0.5 * ((value - batch_ret[part]) ** 2).mean()
                )
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    return seen_decisions


def start(env: ThirteenEnv, rng: np.random.Generator) -> None:
    """Deal a new round, again while a round ends before any agent moves (an instant win)."""
    env.reset(seed=int(rng.integers(2**31)))
    while all(env.terminations.values()):
        env.reset(seed=int(rng.integers(2**31)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=45.0, help="CPU minutes to train")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--batch", type=int, default=8192, help="decisions per update")
    parser.add_argument("--first", type=int, default=256)
    parser.add_argument("--second", type=int, default=128)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-rounds", type=int, default=600)
    parser.add_argument(
        "--imitate", default="strong", help="the computer player to learn from first ('' for none)"
    )
    parser.add_argument(
        "--imitate-minutes", type=float, default=15.0, help="of --minutes, those spent imitating"
    )
    parser.add_argument("--lr", type=float, default=1e-4, help="the self-play learning rate")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--curve", type=Path, default=None, help="the learning curve's CSV (beside --out)")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    policy = Policy(FEATURES, args.first, args.second, ACTIONS)
    curve: list[tuple[int, float, float, float]] = []
    best, best_state = -1.0, None
    started = time.process_time()
    decisions = 0

    def checkpoint(label: str) -> None:
        """Evaluate the policy, add the result to the curve, and keep (and export) the best weights."""
        nonlocal best, best_state
        points, firsts = evaluate(policy, args.eval_rounds)
        minutes = (time.process_time() - started) / 60
        curve.append((decisions, minutes, points, firsts))
        print(
            f"{decisions:>9} decisions {minutes:5.1f} min  {label}against 3 heuristic: "
            f"{points:.3f} points a round, {firsts:.1%} first",
            flush=True,
        )
        if points > best:
            best, best_state = points, {k: v.clone() for k, v in policy.state_dict().items()}
            export(layers(policy), args.out)

    if args.imitate:
        decisions = imitate(policy, args.imitate, args.imitate_minutes, args.seed, args.batch)
        checkpoint(f"imitated {args.imitate}; ")
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    envs = [ThirteenEnv(opponents=TABLES[index % len(TABLES)], episode="round") for index in range(args.envs)]
    for env in envs:
        start(env, rng)
    # Each agent's decisions of the round in play, by table: (inputs, mask, action, log-probability).
    pending: list[dict[str, list[tuple[list[float], Any, int, float]]]] = [{} for _ in envs]
    update = 0
    while time.process_time() - started < 60 * args.minutes:
        xs: list[list[float]] = []
        masks: list[Any] = []
        actions: list[int] = []
        logps: list[float] = []
        returns: list[float] = []
        while len(returns) < args.batch:
            seen_now = [seen(env) for env in envs]
            x = torch.tensor([inputs for inputs, _ in seen_now])
            mask = torch.from_numpy(np.stack([legal for _, legal in seen_now]).astype(bool))
            with torch.no_grad():
                logits, _ = policy(x, mask)
            dist = torch.distributions.Categorical(logits=logits)
            chosen = dist.sample()
            logp = dist.log_prob(chosen)
            for index, env in enumerate(envs):
                agent = env.agent_selection
                action = int(chosen[index])
                pending[index].setdefault(agent, []).append(
                    (seen_now[index][0], seen_now[index][1], action, float(logp[index]))
                )
                env.step(action)
                if all(env.terminations.values()):
                    for who, steps in pending[index].items():
                        earned = env.rewards[who] - EVEN_SHARE
                        for inputs, legal, taken, taken_logp in steps:
                            xs.append(inputs)
                            masks.append(legal)
                            actions.append(taken)
                            logps.append(taken_logp)
                            returns.append(earned)
                    pending[index] = {}
                    start(env, rng)
        decisions += len(returns)
        batch_x = torch.tensor(xs)
        batch_mask = torch.from_numpy(np.stack(masks).astype(bool))
        batch_action = torch.tensor(actions)
        batch_logp = torch.tensor(logps)
        batch_ret = torch.tensor(returns)
        with torch.no_grad():
            _, batch_value = policy(batch_x, batch_mask)
        batch_adv = batch_ret - batch_value
        ppo_update(policy, optimizer, batch_x, batch_mask, batch_action, batch_logp, batch_adv, batch_ret)
        update += 1
        if update % args.eval_every == 0:
            checkpoint("")
    curve_path = args.curve or args.out.with_suffix(".csv")
    header = ["decisions", "cpu_minutes", "points_per_round", "first_places"]
    finish(policy, best_state, args.out, curve_path, header, curve)
    print(f"best evaluation {best:.3f} points a round; weights in {args.out}")


if __name__ == "__main__":
    main()
