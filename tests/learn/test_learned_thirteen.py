"""The learned Thirteen player seen beside NumPy: its pure-Python inputs are the environment's
observation, and its pure-Python network scores what NumPy computes from the shipped weights."""

from __future__ import annotations

import random
from importlib import resources

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.thirteen import Match
from parlour.thirteen.bots.learned import WEIGHTS, LearnedBot, network
from parlour.thirteen.learn.env import legal_mask, observe_view
from parlour.thirteen.observation import features, observe


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(0, 150))
def test_the_players_inputs_are_the_environments_observation(number: int, moves: int) -> None:
    match = Match(number)
    rng = random.Random(number)
    for _ in range(moves):
        seat = match.turn
        if seat is None:
            break
        for viewer in range(4):
            view = match.view(viewer)
            assert np.array_equal(observe_view(view), np.array(observe(view), dtype=np.float32))
        match.push(rng.choice(match.view(seat).legal_moves()))


def test_the_pure_python_network_scores_as_numpy_does() -> None:
    path = resources.files("parlour.thirteen.bots") / "data" / WEIGHTS
    with resources.as_file(path) as file, np.load(file) as data:
        layers = [(data[f"w{n}"], data[f"b{n}"]) for n in range(3)]
    match = Match(4242)
    rng = random.Random(1)
    compared = 0
    while not match.over and compared < 60:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        hidden = np.array(features(observe(view)))
        for weights, bias in layers[:2]:
            hidden = np.maximum(0.0, hidden @ weights + bias)
        expected = hidden @ layers[2][0] + layers[2][1]
        legal = np.flatnonzero(legal_mask(view)).tolist()
        assert np.allclose(network().score(features(observe(view)), legal), expected[legal], atol=1e-4)
        chosen = LearnedBot().choose(view)
        assert chosen in view.legal_moves()
        compared += 1
        match.push(rng.choice(view.legal_moves()))
    assert compared == 60
