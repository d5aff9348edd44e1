"""Parlour for machine learning: TriPeaks as a Gymnasium environment, Thirteen as a PettingZoo one.

Needs the ``learn`` extra (``pip install parlour[learn]``: Gymnasium, PettingZoo, NumPy). Importing
this package registers ``parlour/TriPeaks-v0`` with Gymnasium::

    import gymnasium as gym
    import parlour.learn

    env = gym.make("parlour/TriPeaks-v0", rules="classic")

and ``parlour.learn.thirteen_v0.env()`` makes the Thirteen environment. See docs/learn.md and decision
0052.
"""

from __future__ import annotations

import gymnasium as gym

TRIPEAKS_ID = "parlour/TriPeaks-v0"

if TRIPEAKS_ID not in gym.registry:
    # A game has at most 52 moves; the limit only stops a policy that keeps choosing refused actions.
    gym.register(id=TRIPEAKS_ID, entry_point="parlour.learn.tripeaks_env:TriPeaksEnv", max_episode_steps=1000)

__all__ = ["TRIPEAKS_ID"]
