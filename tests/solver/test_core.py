"""The compiled core and the pure-Python twin: built, used, and giving identical answers."""

from __future__ import annotations

import shutil

import pytest

from parlour.tripeaks import CLASSIC, EASY, DealCode, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import compiled_available, solve
from parlour.tripeaks.solver.core import COMPILED_SOLVE, PYTHON_SOLVE, core
from parlour.tripeaks.solver.position import Position
from solver.helpers import game_after


def test_the_compiled_cores_are_built_and_used_when_a_compiler_exists() -> None:
    """All three compiled cores (the solver's, the rollouts', Thirteen's search) are there wherever a
    compiler is: the parity tests that skip without a core cannot then skip unnoticed."""
    from parlour.thirteen.bots.search import COMPILED_SEARCH
    from parlour.tripeaks.solver.rollout import COMPILED_ROLLOUTS

    if not (shutil.which("gcc") or shutil.which("cc")):
        pytest.skip("no C compiler here: the twin is used")
    built = {"_core": COMPILED_SOLVE, "_rollout": COMPILED_ROLLOUTS, "_search": COMPILED_SEARCH}
    missing = [name for name, found in built.items() if found is None]
    assert not missing, f"a C compiler exists but {missing} were not built (pip install -e .)"
    assert compiled_available()
    assert core()[0] == "c"
    assert solve(Game.from_code("TP1-E-AAAAAAB")).core == "c"


def test_the_twin_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_SOLVER_CORE", "python")
    assert core()[0] == "python"
    with pytest.raises(ValueError, match="unknown solver core"):
        core("fortran")


# Positions part-way through real deals (so that the twin stays quick), every rule set and variant.
PARITY_CASES = [
    (1, EASY, 12),
    (3, EASY, 12),
    (5, EASY, 6),
    (8, EASY, 14),
    (2, CLASSIC, 10),
    (5, CLASSIC, 8),
    (8, CLASSIC, 12),
    (4, CLASSIC, 14),
    (6, EASY.with_variants("joker"), 12),
    (7, CLASSIC.with_variants("empty_discard"), 12),
    (9, EASY.with_variants("draw_only_when_stuck"), 10),
    (10, CLASSIC.with_variants("joker", "empty_discard", "open_peaks"), 12),
]


@pytest.mark.skipif(COMPILED_SOLVE is None, reason="the compiled core is not built")
@pytest.mark.parametrize(("number", "rules", "moves"), PARITY_CASES)
def test_core_and_twin_give_identical_answers(number: int, rules: Rules, moves: int) -> None:
    assert COMPILED_SOLVE is not None
    game = game_after(number, rules, moves)
    ranks, removed, stock, top = Position.of_game(game).codes()
    args = (ranks, removed, stock, top, rules.king_ace_linked, rules.draw_only_when_stuck, 10**6)
    for winnable_only in (0, 1, 2):
        compiled = COMPILED_SOLVE(*args, winnable_only)
        python = PYTHON_SOLVE(*args, winnable_only)
        assert compiled == python  # answer, line, best result and even the node count


@pytest.mark.skipif(COMPILED_SOLVE is None, reason="the compiled core is not built")
def test_core_and_twin_agree_on_a_whole_deal() -> None:
    assert COMPILED_SOLVE is not None
    game = Game.from_code(DealCode(1, CLASSIC))
    ranks, removed, stock, top = Position.of_game(game).codes()
    args = (ranks, removed, stock, top, False, False, 10**6, False)
    assert COMPILED_SOLVE(*args) == PYTHON_SOLVE(*args)


@pytest.mark.parametrize("core_name", ["c", "python"])
def test_a_search_that_gives_up_says_so(core_name: str) -> None:
    if core_name == "c" and COMPILED_SOLVE is None:
        pytest.skip("the compiled core is not built")
    solution = solve(Game.from_code("TP1-E-AAAAAAB"), node_limit=50, core_name=core_name)
    assert not solution.proved
    assert not solution.winnable
    assert solution.moves is None


@pytest.mark.parametrize("solve_core", [PYTHON_SOLVE, COMPILED_SOLVE])
def test_malformed_input_is_refused(solve_core: object) -> None:
    if solve_core is None:
        pytest.skip("the compiled core is not built")
    assert callable(solve_core)
    with pytest.raises(ValueError):
        solve_core(bytes(27), 0, bytes(23), 0, True, False, 100, False)
    with pytest.raises(ValueError):
        solve_core(bytes([20] * 28), 0, bytes(23), 0, True, False, 100, False)
