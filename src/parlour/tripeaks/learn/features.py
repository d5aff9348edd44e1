"""The learned TriPeaks player's inputs: an observation of ``parlour/TriPeaks-v0`` as 475 numbers.

In TriPeaks only ranks matter (a card fits by rank; suits play no part), so the features are by rank:

- for each of the 28 positions, 16 numbers: removed, face down, the rank of its face-up card (13,
  one-hot), the joker;
- the discard top's rank (13, one-hot; all 0 for an empty pile or the joker);
- for each rank, how many of its cards are gone to the discard pile, over 4 (13);
- the stock's size over 24 (1).

So 28 × 16 + 13 + 13 + 1 = 475 numbers. They come from the observation alone, which holds no hidden
card. Only NumPy is needed: the training script (``scripts/train_tripeaks.py``) and the player
(``parlour.tripeaks.learn.player``) share this module.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from parlour.cards import JOKER_INDEX
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.learn.env import MAX_STOCK

RANKS: Final = 13
FEATURES: Final = TABLEAU_SIZE * (2 + RANKS + 1) + RANKS + RANKS + 1


def _code_table() -> np.ndarray[Any, np.dtype[np.float32]]:
    """Row ``code`` holds the 16 numbers of a tableau code (0 removed, 1 face down, 2 + card index)."""
    table = np.zeros((2 + JOKER_INDEX + 1, 2 + RANKS + 1), dtype=np.float32)
    table[0, 0] = 1.0
    table[1, 1] = 1.0
    for index in range(JOKER_INDEX):
        table[2 + index, 2 + index % RANKS] = 1.0
    table[2 + JOKER_INDEX, 2 + RANKS] = 1.0
    return table


_CODES: Final = _code_table()


def features(observation: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Return the player's inputs of one observation (see the module)."""
    tableau = _CODES[observation["tableau"]].ravel()
    top = np.zeros(RANKS, dtype=np.float32)
    code = int(observation["top"])
    if 0 < code <= JOKER_INDEX:
        top[(code - 1) % RANKS] = 1.0
    gone = observation["gone"][:JOKER_INDEX].reshape(4, RANKS).sum(axis=0, dtype=np.float32) / 4.0
    stock = np.array([float(observation["stock"]) / MAX_STOCK], dtype=np.float32)
    return np.concatenate((tableau, top, gone, stock))
