"""Train the learned TriPeaks player: PPO with action masks on ``parlour/TriPeaks-v0``, on CPU.

Run (needs PyTorch for CPU: ``.venv/bin/pip install torch==2.13.0``)::

    .venv/bin/python scripts/train_tripeaks.py --rules easy --minutes 40 --seed 0 \\
        --out src/parlour/tripeaks/learn/data/tripeaks_easy.npz --curve docs/plots/tripeaks-easy.csv

The policy is a small network (``parlour.tripeaks.learn.features`` inputs, two hidden layers of 128,
29 action scores and a value) trained by proximal policy optimisation on random deals, one core,
``--envs`` games at once. Illegal actions are masked out of the policy. The reward is the environment's
``win`` reward (1 for a won game) plus 1/28 for each card taken, which points the same way and teaches
sooner. Every ``--eval-every`` updates, the policy plays the numbered games #50,001–#50,400 taking its
best action each move (they lie outside the games #1–#2,000 the benchmarks measure on), and the weights
of the best evaluation are kept. At the end the weights are written as NumPy arrays (played without
PyTorch by ``parlour.tripeaks.learn.player``) and the learning curve as CSV (``--curve``, beside them by
default); ``scripts/plot_learning.py`` draws it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from masked_ppo import Policy, finish, ppo_update
from torch import nn

from parlour.tripeaks.learn.env import ACTIONS, TriPeaksEnv
from parlour.tripeaks.learn.features import FEATURES, features

CARD_REWARD = 1.0 / 28
EVALUATION_GAMES = range(50_001, 50_401)


def evaluate(policy: Policy, rules: str) -> float:
    """Return the share of the evaluation games the policy's best action wins."""
    env = TriPeaksEnv(rules)
    won = 0
    for number in EVALUATION_GAMES:
        observation, _ = env.reset(options={"number": number})
        while True:
            x = torch.from_numpy(features(observation)).unsqueeze(0)
            mask = torch.from_numpy(observation["action_mask"].astype(bool)).unsqueeze(0)
            with torch.no_grad():
                logits, _ = policy(x, mask)
            observation, reward, terminated, _, _ = env.step(int(logits.argmax()))
            if terminated:
                won += reward == 1.0
                break
    return won / len(EVALUATION_GAMES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=("easy", "classic"), default="easy")
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--steps", type=int, default=64, help="steps of each game per update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--curve", type=Path, default=None, help="the learning curve's CSV (beside --out)")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    policy = Policy(FEATURES, args.hidden, args.hidden, ACTIONS, nn.Tanh)
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    envs = [TriPeaksEnv(args.rules) for _ in range(args.envs)]
    observations = [env.reset(seed=int(rng.integers(2**31)))[0] for env in envs]
    curve: list[tuple[int, float, float, float]] = []
    best, best_state = -1.0, None
    started = time.process_time()
    update = steps_done = 0
    recent_wins: list[float] = []
    while time.process_time() - started < 60 * args.minutes:
        xs, masks, actions, logps, values, rewards, dones = [], [], [], [], [], [], []
        for _ in range(args.steps):
            x = torch.from_numpy(np.stack([features(o) for o in observations]))
            mask = torch.from_numpy(np.stack([o["action_mask"] for o in observations]).astype(bool))
            with torch.no_grad():
                logits, value = policy(x, mask)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            reward = np.zeros(args.envs, dtype=np.float32)
            done = np.zeros(args.envs, dtype=np.float32)
            for index, env in enumerate(envs):
                cards = env.game.cards_left if env.game else 0
                observation, won, terminated, _, _ = env.step(int(action[index]))
                left = env.game.cards_left if env.game else 0
                reward[index] = float(won) + CARD_REWARD * (cards - left)
                if terminated:
                    done[index] = 1.0
                    recent_wins.append(float(won))
                    observation, _ = env.reset(seed=int(rng.integers(2**31)))
                observations[index] = observation
            xs.append(x)
            masks.append(mask)
            actions.append(action)
            logps.append(dist.log_prob(action))
            values.append(value)
            rewards.append(torch.from_numpy(reward))
            dones.append(torch.from_numpy(done))
        steps_done += args.steps * args.envs
        with torch.no_grad():
            x = torch.from_numpy(np.stack([features(o) for o in observations]))
            mask = torch.from_numpy(np.stack([o["action_mask"] for o in observations]).astype(bool))
            _, last_value = policy(x, mask)
        # Generalised advantage estimation (gamma 1: an episode is at most 52 moves).
        advantages = torch.zeros(args.steps, args.envs)
        running = torch.zeros(args.envs)
        for t in reversed(range(args.steps)):
            following = last_value if t == args.steps - 1 else values[t + 1]
            delta = rewards[t] + following * (1 - dones[t]) - values[t]
            running = delta + 0.95 * (1 - dones[t]) * running
            advantages[t] = running
        returns = advantages + torch.stack(values)
        batch_x, batch_mask = torch.cat(xs), torch.cat(masks)
        batch_action, batch_logp = torch.cat(actions), torch.cat(logps)
        batch_adv, batch_ret = advantages.reshape(-1), returns.reshape(-1)
        ppo_update(policy, optimizer, batch_x, batch_mask, batch_action, batch_logp, batch_adv, batch_ret)
        update += 1
        if update % args.eval_every == 0:
            score = evaluate(policy, args.rules)
            training = float(np.mean(recent_wins)) if recent_wins else 0.0
            recent_wins.clear()
            minutes = (time.process_time() - started) / 60
            curve.append((steps_done, minutes, training, score))
            print(
                f"{steps_done:>9} steps {minutes:5.1f} min  "
                f"training wins {training:.3f}  evaluation {score:.3f}"
            )
            if score > best:
                best, best_state = score, {k: v.clone() for k, v in policy.state_dict().items()}
    curve_path = args.curve or args.out.with_suffix(".csv")
    header = ["steps", "cpu_minutes", "training_wins", "evaluation_wins"]
    finish(policy, best_state, args.out, curve_path, header, curve, rules=args.rules)
    print(f"best evaluation {best:.3f}; weights in {args.out}")


if __name__ == "__main__":
    main()
