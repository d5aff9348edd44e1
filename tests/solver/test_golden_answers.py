"""Both cores give the golden solver answers, lines included (see golden_answers.py)."""

from __future__ import annotations

import json

import pytest

from parlour.tripeaks.solver.core import COMPILED_SOLVE
from solver.golden_answers import CASES, GOLDEN_FILE, answers


@pytest.mark.timeout(300)
@pytest.mark.parametrize("core_name", ["c", "python"])
def test_the_solver_gives_the_golden_answers(core_name: str) -> None:
    if core_name == "c" and COMPILED_SOLVE is None:
        pytest.skip("the compiled core is not built")
    assert answers(core_name) == json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))


def test_the_golden_answers_hold_wins_losses_and_every_variant() -> None:
    golden = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
    assert len(golden) == len(CASES)
    assert {answer["winnable"] for answer in golden.values()} == {True, False}
    assert all(answer["proved"] for answer in golden.values())
    assert {code.count("-") for code in golden} == {2, 3}  # plain codes and codes with variants
