"""The sweep that gives the full answer (solver/sweep.py and its compiled twin): the same answers as an
oracle and as the A* search it replaced, the same in both cores, and the search kept where it is still
used (a removed set play cannot reach, "draw only when stuck")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import solve, sweep, twin
from parlour.tripeaks.solver.core import COMPILED_SOLVE, PYTHON_SOLVE
from parlour.tripeaks.solver.position import Position
from solver.helpers import replay
from solver.test_solve import breadth_first

RULES = [EASY, CLASSIC, EASY.with_variants("joker"), CLASSIC.with_variants("empty_discard")]


def test_the_layout_has_22932_reachable_sets_taken_in_order_of_size() -> None:
    sets = sweep._layout().sets
    assert len(sets) == 22_932
    assert sets[0] == 0 and sets[-1] == twin.FULL
    sizes = [s.bit_count() for s in sets]
    assert sizes == sorted(sizes)
    # A set is reachable exactly when no card in it is gone while a card on it is still there.
    assert sweep.reachable(1 << 27)  # a bottom-row card
    assert not sweep.reachable(1 << 0)  # a peak top under its two cards


def random_position(seed: int, rules: Rules, moves: int) -> Game:
    """Deal ``seed`` of ``rules`` after up to ``moves`` random legal moves (draws rarer than plays)."""
    rng = random.Random(seed)
    game = Game.from_code(DealCode(1 + seed % 50_000, rules))
    for _ in range(moves):
        if game.status != "playing":
            break
        actions = game.legal_actions()
        plays = [a for a in actions if a != "draw"]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions))
    return game


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULES), st.integers(22, 30))
def test_fewest_moves_and_best_result_match_breadth_first_search(seed: int, rules: Rules, moves: int) -> None:
    game = random_position(seed, rules, moves)
    fewest, left, best_moves = breadth_first(game)
    solution = solve(game)
    assert solution.proved
    assert solution.moves == fewest
    assert (solution.best_left, solution.best_moves) == (left, best_moves)
    # The line is one the engine accepts and ends where the answer says.
    end = replay(game.copy(), solution.line)
    assert end.moves == (fewest if fewest is not None else best_moves)
    assert end.cards_left == left


@pytest.mark.skipif(COMPILED_SOLVE is None, reason="the compiled core is not built")
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULES), st.integers(0, 30), st.sampled_from([0, 1]))
def test_both_cores_sweep_to_identical_answers(
    seed: int, rules: Rules, moves: int, winnable_only: int
) -> None:
    assert COMPILED_SOLVE is not None
    ranks, removed, stock, top = Position.of_game(random_position(seed, rules, moves)).codes()
    args = (ranks, removed, stock, top, rules.king_ace_linked, False, 10**6, winnable_only)
    assert COMPILED_SOLVE(*args) == PYTHON_SOLVE(*args)  # answer, lines and node count


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("number", "rules"), [(1, EASY), (3, EASY), (1, CLASSIC), (2, CLASSIC), (4, CLASSIC)]
)
def test_the_sweep_answers_as_the_search_does_on_whole_deals(number: int, rules: Rules) -> None:
    """The A* search (twin) that gave the full answer before the sweep, run directly: the same
    winnability, fewest moves and best result (the census of all 100,000 numbered games agreed too)."""
    ranks, removed, stock, top = Position.of_deal(Deal.from_code(DealCode(number, rules)), rules).codes()
    search = twin._Search(ranks, stock, rules.king_ace_linked, False, 10**7)
    search.run(removed, top)
    if not search.won:
        search.run_best()
    searched_line = search.line_to(search.win_key if search.won else search.best_key)
    swept = sweep.sweep(ranks, stock, rules.king_ace_linked, removed, top, 10**7, 0)
    assert swept.winnable == search.won
    assert swept.best_removed == search.best_p
    assert swept.best_line is not None
    assert len(swept.best_line) == len(searched_line)


@pytest.mark.skipif(COMPILED_SOLVE is None, reason="the compiled core is not built")
def test_a_removed_set_play_cannot_reach_is_still_searched_alike() -> None:
    assert COMPILED_SOLVE is not None
    ranks, _, stock, top = Position.of_deal(Deal.from_code(DealCode(2, EASY)), EASY).codes()
    removed = 1 << 0 | 1 << 27  # a peak top gone under its cards
    assert not sweep.reachable(removed)
    for winnable_only in (0, 1):
        args = (ranks, removed, stock, top, True, False, 10**6, winnable_only)
        assert COMPILED_SOLVE(*args) == PYTHON_SOLVE(*args)


@pytest.mark.parametrize("core_name", ["c", "python"])
def test_a_node_limit_stops_the_sweep_unproved_with_its_best_so_far(core_name: str) -> None:
    if core_name == "c" and COMPILED_SOLVE is None:
        pytest.skip("the compiled core is not built")
    game = Game.from_code(DealCode(1, EASY))
    solution = solve(game, node_limit=200, core_name=core_name)
    assert not solution.proved and not solution.winnable
    end = replay(game.copy(), solution.line)
    assert end.cards_left == solution.best_left < 28
