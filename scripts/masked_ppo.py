"""What the training scripts share: one proximal policy optimisation step over a batch of masked
decisions, and the export of a policy's layers as NumPy arrays (PyTorch needed; see docs/learn.md)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn


class Policy(nn.Module):
    """Two hidden layers (``first`` and ``second`` units, then ``activation``) shared by a score for each
    of ``actions`` actions (illegal ones masked out) and a value."""

    def __init__(
        self, inputs: int, first: int, second: int, actions: int, activation: type[nn.Module] = nn.ReLU
    ) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(inputs, first), activation(), nn.Linear(first, second), activation()
        )
        self.scores = nn.Linear(second, actions)
        self.value = nn.Linear(second, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.scores(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


CLIP = 0.2
VALUE_WEIGHT = 0.5
ENTROPY_WEIGHT = 0.01
MINIBATCH = 512
EPOCHS = 4


def ppo_update(
    policy: nn.Module,
    optimizer: torch.optim.Optimizer,
    inputs: torch.Tensor,
    masks: torch.Tensor,
    actions: torch.Tensor,
    log_probs: torch.Tensor,
    advantages: torch.Tensor,
    returns: torch.Tensor,
) -> None:
    """Improve ``policy`` (called with inputs and masks, it returns action logits and values) on one
    batch: ``EPOCHS`` passes of shuffled minibatches, the clipped objective, the value's squared error and
    an entropy bonus. The advantages are normalised here."""
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    size = len(actions)
    for _ in range(EPOCHS):
        order = torch.randperm(size)
        for start in range(0, size, MINIBATCH):
            part = order[start : start + MINIBATCH]
            logits, value = policy(inputs[part], masks[part])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(actions[part]) - log_probs[part])
            clipped = torch.clamp(ratio, 1 - CLIP, 1 + CLIP)
            loss = (
                -torch.min(ratio * advantages[part], clipped * advantages[part]).mean()
                + VALUE_WEIGHT * ((value - returns[part]) ** 2).mean()
                - ENTROPY_WEIGHT * dist.entropy().mean()
            )
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()


def export(layers: list[nn.Linear], path: Path, **extra: Any) -> None:
    """Write the layers' weights as NumPy arrays (float32; ``w0``, ``b0``, … with each layer's inputs by
    row), with ``extra`` arrays beside them, for the players that run without PyTorch."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {key: np.array(value) for key, value in extra.items()}
    for number, layer in enumerate(layers):
        arrays[f"w{number}"] = np.ascontiguousarray(layer.weight.detach().numpy().T.astype(np.float32))
        arrays[f"b{number}"] = layer.bias.detach().numpy().astype(np.float32)
    np.savez_compressed(path, **arrays)


def write_curve(path: Path, header: Sequence[str], rows: Sequence[Sequence[float]]) -> None:
    """Write a learning curve as CSV (``scripts/plot_learning.py`` draws it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        writer.writerows(rows)


def layers(policy: nn.Module) -> list[nn.Linear]:
    """Return the layers a player needs: the two hidden ones (``body[0]``, ``body[2]``) and the action
    scores (the value head stays behind)."""
    return [policy.body[0], policy.body[2], policy.scores]


def finish(
    policy: nn.Module,
    best_state: dict[str, torch.Tensor] | None,
    out: Path,
    curve_path: Path,
    header: Sequence[str],
    curve: Sequence[Sequence[float]],
    **extra: Any,
) -> None:
    """Put the best evaluation's weights back (when there was one), export them to ``out`` and write
    the learning curve."""
    if best_state is not None:
        policy.load_state_dict(best_state)
    export(layers(policy), out, **extra)
    write_curve(curve_path, header, curve)
