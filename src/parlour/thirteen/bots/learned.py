"""The learned Thirteen player: a small network trained by self-play (``scripts/train_thirteen.py``),
played in pure Python from weights that ship with the package (``bots/data/thirteen_learned.npz``).

It sees only its seat's ``PlayerView``. Its inputs are the learning environment's observation (the 178
numbers of ``parlour.thirteen.learn.env``, built here without NumPy by :func:`observe`) and a few
numbers derived from it (:func:`features`): how many cards of each rank the seat holds and how many are
still unseen, and the kind and length of the combination on the table. It scores the actions of
``parlour.thirteen.actions`` and plays the legal one scored highest; ties go to the lower action. The
engine takes no third-party import, so the forward pass is written out with lists: the first layer adds
the rows of the inputs that are not zero (most are not), the last scores only the legal actions. See
decision 0052.
"""

from __future__ import annotations

import ast
import sys
import zipfile
from array import array
from collections.abc import Sequence
from functools import cache
from importlib import resources
from operator import mul
from typing import IO, Final

from parlour.thirteen.actions import PASS_ACTION, action_of, play_of
from parlour.thirteen.bots.base import Bot
from parlour.thirteen.move import Move
from parlour.thirteen.observation import FEATURES, features, observe
from parlour.thirteen.views import PlayerView

WEIGHTS: Final = "thirteen_learned.npz"


class Network:
    """Two hidden layers (ReLU) and a score for each action, as lists of floats.

    Attributes:
        rows: the first layer's weights by input (``FEATURES`` rows of the first hidden size).
        first_bias, second, second_bias: the second layer by output unit.
        scores, score_bias: the action scores' weights by action.
    """

    def __init__(self, arrays: dict[str, tuple[tuple[int, ...], list[float]]]) -> None:
        self.rows = _matrix(arrays["w0"])
        self.first_bias = arrays["b0"][1]
        self.second = _columns(arrays["w1"])
        self.second_bias = arrays["b1"][1]
        self.scores = _columns(arrays["w2"])
        self.score_bias = arrays["b2"][1]
        if len(self.rows) != FEATURES or len(self.scores) != PASS_ACTION + 1:
            raise ValueError(f"the weights take {len(self.rows)} inputs and score {len(self.scores)} actions")

    def score(self, inputs: Sequence[float], actions: Sequence[int]) -> list[float]:
        """Return the scores of ``actions`` for the network's ``inputs``."""
        hidden = list(self.first_bias)
        for row, value in zip(self.rows, inputs, strict=True):
            if value:
                hidden = [total + value * weight for total, weight in zip(hidden, row, strict=True)]
        hidden = [total if total > 0.0 else 0.0 for total in hidden]
        second = [
            max(0.0, bias + sum(map(mul, weights, hidden)))
            for weights, bias in zip(self.second, self.second_bias, strict=True)
        ]
        return [self.score_bias[action] + sum(map(mul, self.scores[action], second)) for action in actions]


class LearnedBot(Bot):
    """The learned player of the ladder (``learned``): the trained network's best legal action."""

    name = "learned"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.network = network()

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Play the legal action the network scores highest (a shape's lowest completion)."""
        actions = sorted({action_of(play) for play in plays} | ({PASS_ACTION} if may_pass else set()))
        scores = self.network.score(features(observe(view)), actions)
        best = actions[max(range(len(actions)), key=scores.__getitem__)]
        play = play_of(best, view.hand_mask)
        assert play is not None  # a legal play's shape has a lowest completion in the hand
        return Move(play)  # the pass's play is no card


@cache
def network() -> Network:
    """Return the shipped network (read once).

    Raises:
        ValueError: the weights file is not the network's.
    """
    path = resources.files("parlour.thirteen.bots") / "data" / WEIGHTS
    with path.open("rb") as file:
        return Network(read_npz(file))


def read_npz(file: IO[bytes]) -> dict[str, tuple[tuple[int, ...], list[float]]]:
    """Return the float32 arrays of a NumPy ``.npz`` file (an open binary file), by name, as their
    shape and their values in row-major order, without NumPy.

    Raises:
        ValueError: an array is not little-endian float32 in row-major order, or the file is not one.
    """
    arrays: dict[str, tuple[tuple[int, ...], list[float]]] = {}
    with zipfile.ZipFile(file) as archive:
        for name in archive.namelist():
            if name.endswith(".npy"):
                arrays[name.removesuffix(".npy")] = _read_npy(archive.read(name), name)
    return arrays


def _read_npy(data: bytes, name: str) -> tuple[tuple[int, ...], list[float]]:
    """Read one ``.npy`` array (format 1 or 2) of float32 values."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{name} is not a NumPy array")
    size_bytes = 2 if data[6] == 1 else 4
    length = int.from_bytes(data[8 : 8 + size_bytes], "little")
    start = 8 + size_bytes + length
    header = ast.literal_eval(data[8 + size_bytes : start].decode("latin-1"))
    if not isinstance(header, dict) or header.get("descr") != "<f4" or header.get("fortran_order"):
        raise ValueError(f"{name} is not a little-endian float32 array in row-major order")
    shape = tuple(int(side) for side in header["shape"])
    values = array("f")
    values.frombytes(data[start:])
    if sys.byteorder != "little":
        values.byteswap()
    count = 1
    for side in shape:
        count *= side
    if len(values) != count:
        raise ValueError(f"{name} holds {len(values)} values, not the {count} of its shape {shape}")
    return shape, values.tolist()


def _matrix(array_: tuple[tuple[int, ...], list[float]]) -> list[list[float]]:
    """Return a 2-D array's rows."""
    (rows, columns), values = array_
    return [values[row * columns : (row + 1) * columns] for row in range(rows)]


def _columns(array_: tuple[tuple[int, ...], list[float]]) -> list[list[float]]:
    """Return a 2-D array's columns (a layer's weights by output unit)."""
    (_, columns), values = array_
    return [values[column::columns] for column in range(columns)]
