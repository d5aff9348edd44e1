"""TriPeaks puzzles (issue 53): each printed puzzle's position has exactly one legal move after which
the deal can be won, every other move proved lost, and it is the printed answer; the answer is the
fair search's clear choice, so a player who cannot see the face-down cards can find it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.tripeaks.game import Game
from parlour.tripeaks.solver.hints import fair_hint
from parlour.tripeaks.solver.puzzles import FAIR_GAP, Census, numbered_puzzles, winning_moves
from parlour.tripeaks.solver.solve import solve


@cache
def printed(count: int, rules: str = "easy") -> list[dict[str, Any]]:
    """The puzzles ``parlour tripeaks puzzles --count N --json`` prints."""
    done = CliRunner().invoke(
        main, ["tripeaks", "puzzles", "--count", str(count), "--rules", rules, "--json"]
    )
    assert done.exit_code == 0, done.output
    found: list[dict[str, Any]] = json.loads(done.output)
    assert len(found) == count
    return found


def position(puzzle: dict[str, Any]) -> Game:
    game = Game.from_code(puzzle["code"])
    for move in puzzle["moves"]:
        game.apply(move)
    return game


def winners(game: Game, core: str | None = None) -> list[str]:
    """The legal moves after which the deal can be won, each proved by the solver's ``core``."""
    found = []
    for move in game.legal_actions():
        after = game.copy()
        after.apply(move)
        answer = solve(after, winnable_only=True, core_name=core)
        assert answer.proved
        if answer.winnable:
            found.append(move)
    return found


def test_two_hundred_puzzles_each_have_exactly_one_winning_move_the_answer() -> None:
    puzzles = printed(200)
    assert len({(p["code"], len(p["moves"])) for p in puzzles}) == 200
    for puzzle in puzzles:
        game = position(puzzle)
        assert game.status == "playing" and len(game.legal_actions()) >= 2
        assert winners(game) == [puzzle["answer"]], puzzle
        after = game.copy()
        after.apply(puzzle["answer"])
        for move in puzzle["line"]:  # the solver's win, played out after the answer
            after.apply(move)
        assert after.status == "won"
        assert puzzle["difficulty"] in ("easy", "medium", "hard")


@pytest.mark.parametrize("rules", ["easy", "classic"])
def test_the_compiled_solver_and_its_twin_agree_on_every_move_of_puzzles(rules: str) -> None:
    for puzzle in printed(12, rules):
        assert winners(position(puzzle), "python") == [puzzle["answer"]]


def test_the_answer_is_the_fair_searchs_clear_choice() -> None:
    for puzzle in printed(12, "classic"):
        hint = fair_hint(position(puzzle), samples=1600, seed=len(puzzle["moves"]))
        others = [chance for move, chance in hint.chances.items() if move != puzzle["answer"]]
        assert hint.move == puzzle["answer"]
        assert hint.chances[puzzle["answer"]] - max(others) >= FAIR_GAP


def test_the_census_counts_what_was_rejected() -> None:
    census = Census()
    found = numbered_puzzles("easy", 5, 1000, census)
    figures = census.to_json()
    assert figures["kept"] == 5 == len(found)
    assert figures["candidates"] >= figures["unique"] >= figures["unfair"] + figures["obvious"] + 5
    assert all(puzzle.source.startswith("numbered ") for puzzle in found)


def test_a_position_with_several_winning_moves_is_no_puzzle() -> None:
    game = Game.from_code(printed(1)[0]["code"])  # at the deal's start several moves keep it winnable
    assert len(winning_moves(game) or []) != 1 or len(game.legal_actions()) < 2


def test_bad_counts_are_clear_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["tripeaks", "puzzles", "--count", "0"]).exit_code == 2
    past = runner.invoke(main, ["tripeaks", "puzzles", "--from", "50000", "--count", "50"])
    assert past.exit_code == 1 and "Traceback" not in past.output


def test_every_packaged_puzzle_has_exactly_one_winning_move() -> None:
    from parlour.tripeaks.solver.puzzles import packaged_puzzles

    shipped = packaged_puzzles()
    assert len(shipped) == 1000
    assert {puzzle["code"][:6] for puzzle in shipped} == {"TP1-E-", "TP1-C-"}
    for puzzle in shipped:
        assert winners(position(puzzle)) == [puzzle["answer"]], puzzle
