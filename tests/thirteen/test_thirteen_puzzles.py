"""Thirteen puzzles (issue 53): each printed puzzle's seat to play has exactly one move after which it
goes out first against any defence, the printed answer, and its line plays out; the exact search
agrees with plain minimax on small ends of rounds."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import DECK
from parlour.cli import main
from parlour.thirteen.endgame import Search, brute_force_wins, winning_moves
from parlour.thirteen.game import Match
from parlour.thirteen.move import Move
from parlour.thirteen.order import mask_of, text_of
from parlour.thirteen.round import SEATS, Round
from parlour.thirteen.rules import STANDARD


@cache
def printed(count: int) -> list[dict[str, Any]]:
    done = CliRunner().invoke(main, ["thirteen", "puzzles", "--count", str(count), "--json"])
    assert done.exit_code == 0, done.output
    found: list[dict[str, Any]] = json.loads(done.output)
    assert len(found) == count
    return found


def test_a_hundred_puzzles_each_have_exactly_one_winning_move_the_answer() -> None:
    for puzzle in printed(100):
        match = Match.replay(puzzle["code"], puzzle["moves"])
        state = match.round
        assert state.turn == puzzle["seat"] and not state.finished
        assert [text_of(hand) if hand else "" for hand in state.hands] == puzzle["hands"]
        winners, _ = winning_moves(state)
        assert [str(Move(mask)) for mask in winners] == [puzzle["answer"]], puzzle
        assert len(match.legal_moves(puzzle["seat"])) >= 2
        for move in puzzle["line"]:  # one way it goes: the seat goes out first
            match.apply(match.turn, move)  # type: ignore[arg-type]
        assert match.round.finished[:1] == [puzzle["seat"]] or (
            match.results and match.results[-1].order[0] == puzzle["seat"]
        )


def small_round(seed: int, sizes: list[int], leader: int) -> Round:
    """A round whose four hands hold ``sizes`` cards (0 to 3 each) of a shuffled deck."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    hands, at = [], 0
    for size in sizes:
        hands.append(mask_of(deck[at : at + size]))
        at += size
    return Round(5, hands, leader, STANDARD, opening=False)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10_000),
    st.lists(st.integers(1, 3), min_size=SEATS, max_size=SEATS),
    st.integers(0, SEATS - 1),
    st.integers(0, 3),
)
def test_the_search_agrees_with_plain_minimax(seed: int, sizes: list[int], leader: int, opening: int) -> None:
    state = small_round(seed, sizes, leader)
    chance = random.Random(seed)
    for _ in range(opening):  # a few moves in, so that the table is not always empty
        if state.finished or state.turn is None:
            return
        moves = list(state.legal_plays(state.turn)) + ([0] if state.can_pass(state.turn) else [])
        state.push(chance.choice(moves))
    if state.finished or state.turn is None:
        return
    for hero in range(SEATS):
        if state.hands[hero]:
            assert Search(hero).wins(state) == brute_force_wins(state, hero)


def test_every_packaged_puzzle_has_exactly_one_winning_move() -> None:
    from parlour.thirteen.puzzle_board import packaged_puzzles

    shipped = packaged_puzzles()
    assert len(shipped) == 300
    for puzzle in shipped:
        state = Match.replay(puzzle["code"], puzzle["moves"]).round
        winners, _ = winning_moves(state)
        assert [str(Move(mask)) for mask in winners] == [puzzle["answer"]], puzzle
