"""TriPeaks for machine learning (the ``learn`` extra): its Gymnasium environment, its features and the
learned player."""

from __future__ import annotations

from typing import Final

ENVIRONMENT_ID: Final = "parlour/TriPeaks-v0"
"""TriPeaks' environment in Gymnasium's registry (``gym.make("parlour/TriPeaks-v0", rules="classic")``)."""


def register() -> None:
    """Register TriPeaks' environment with Gymnasium (once): the definition's ``learning`` hook."""
    import gymnasium as gym

    if ENVIRONMENT_ID not in gym.registry:
        # A game has at most 52 moves; the limit only stops a policy that keeps choosing refused actions.
        gym.register(
            id=ENVIRONMENT_ID, entry_point="parlour.tripeaks.learn.env:TriPeaksEnv", max_episode_steps=1000
        )
