"""The learned Thirteen player in the engine: its weights ship small and are read without NumPy, bad
weights are refused, and its inputs say what the seat sees."""

from __future__ import annotations

import io
import zipfile
from importlib import resources

import pytest
from thirteen_helpers import make_view

from parlour.thirteen.bots import BOTS, PLAYERS, make_bot
from parlour.thirteen.bots.learned import WEIGHTS, LearnedBot, network, read_npz
from parlour.thirteen.observation import FEATURES, OBSERVATION_SIZE, features, observe, table_kind


def test_the_weights_ship_in_the_package_and_are_small() -> None:
    path = resources.files("parlour.thirteen.bots") / "data" / WEIGHTS
    assert path.is_file() and len(path.read_bytes()) < 5_000_000
    assert len(network().rows) == FEATURES


def test_learned_is_a_player_for_measuring_not_one_offered_to_people() -> None:
    assert isinstance(make_bot("learned"), LearnedBot)
    assert "learned" in PLAYERS and "learned" not in BOTS


def npy(header: str, payload: bytes) -> bytes:
    text = header.encode("latin-1")
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text + payload


def npz(**arrays: bytes) -> io.BytesIO:
    file = io.BytesIO()
    with zipfile.ZipFile(file, "w") as archive:
        for name, data in arrays.items():
            archive.writestr(f"{name}.npy", data)
    file.seek(0)
    return file


def test_read_npz_reads_float32_arrays_and_refuses_anything_else() -> None:
    good = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }", b"\x00\x00\x80?\x00\x00\x00@")
    assert read_npz(npz(a=good)) == {"a": ((2, 1), [1.0, 2.0])}
    doubles = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", bytes(8))
    with pytest.raises(ValueError, match="float32"):
        read_npz(npz(a=doubles))
    short = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", bytes(8))
    with pytest.raises(ValueError, match="not the 3"):
        read_npz(npz(a=short))
    with pytest.raises(ValueError, match="not a NumPy array"):
        read_npz(npz(a=b"hello"))
    with pytest.raises(zipfile.BadZipFile):
        read_npz(io.BytesIO(b"not a zip file"))


def test_the_inputs_count_ranks_and_name_the_table() -> None:
    view = make_view("3S 3C 7H 2H", "5S 5H", counts=(4, 9, 10, 11), played="4D")
    observation = observe(view)
    assert len(observation) == OBSERVATION_SIZE
    inputs = features(observation)
    assert len(inputs) == FEATURES
    held = inputs[OBSERVATION_SIZE : OBSERVATION_SIZE + 13]
    unseen = inputs[OBSERVATION_SIZE + 13 : OBSERVATION_SIZE + 26]
    assert held[0] == 0.5 and held[4] == 0.25 and held[12] == 0.25 and sum(held) == 1.0
    # Threes: two held, two unseen. Fours: one played, three unseen.
    assert unseen[0] == 0.5 and unseen[1] == 0.75
    kind = inputs[OBSERVATION_SIZE + 26 : OBSERVATION_SIZE + 33]
    assert kind == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]  # a pair
    assert inputs[-1] == 2 / 12


@pytest.mark.parametrize(
    ("cards", "ranks", "kind"),
    [(0, 0, 0), (1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 1, 4), (3, 3, 5), (12, 12, 5), (6, 3, 6), (12, 6, 6)],
)
def test_table_kinds(cards: int, ranks: int, kind: int) -> None:
    assert table_kind(cards, ranks) == kind
