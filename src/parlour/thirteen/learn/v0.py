"""``thirteen_v0``: PettingZoo's naming for the Thirteen environment (``env()`` and ``raw_env``)."""

from __future__ import annotations

from parlour.thirteen.learn.env import ThirteenEnv, env

raw_env = ThirteenEnv

__all__ = ["env", "raw_env"]
