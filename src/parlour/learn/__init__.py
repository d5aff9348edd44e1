"""Parlour for machine learning: TriPeaks as a Gymnasium environment, Thirteen as a PettingZoo one.

Needs the ``learn`` extra (``pip install parlour[learn]``: Gymnasium, PettingZoo, NumPy). Importing
this package registers every game's environments (each definition's ``learning`` hook), TriPeaks'
``parlour/TriPeaks-v0`` with Gymnasium among them::

    import gymnasium as gym
    import parlour.learn

    env = gym.make("parlour/TriPeaks-v0", rules="classic")

and ``parlour.thirteen.learn.v0.env()`` makes the Thirteen environment. See docs/learn.md and decision
0052.
"""

from __future__ import annotations

from importlib import import_module

from parlour.games.registry import default_registry


def register_environments() -> list[str]:
    """Call every registered game's ``learning`` hook (it registers the game's environments with
    Gymnasium) and return the names of the games that have one."""
    registered = []
    for definition in default_registry():
        if definition.learning is not None:
            module, _, function = definition.learning.partition(":")
            getattr(import_module(module), function)()
            registered.append(definition.name)
    return registered


GAMES = register_environments()
"""The games whose environments this import registered."""

__all__ = ["GAMES", "register_environments"]
