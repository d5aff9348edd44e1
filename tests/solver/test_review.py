"""The review of a TriPeaks game (``parlour tripeaks review``): its exact verdicts agree with
``parlour tripeaks solve`` at every move, its honest chances are the Thorough hint's own (``parlour
tripeaks hint``, same seed), and its grades follow the documented thresholds."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cli import main
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.game import DRAW, PLAYING, UNDO
from parlour.tripeaks.rules import CLASSIC, EASY
from parlour.tripeaks.solver import compiled_available, solve
from parlour.tripeaks.solver.players import greedy_move
from parlour.tripeaks.solver.review import GRADES, grade, review_game


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["tripeaks", *args])
    return result.exit_code, result.stdout, result.stderr


def random_moves(game: Game, seed: int, count: int) -> list[str]:
    """Up to ``count`` moves a careless player might make (now and then an undo)."""
    chooser = random.Random(seed)
    game = game.copy()
    moves: list[str] = []
    while game.status == PLAYING and len(moves) < count:
        if game.undo_available and chooser.random() < 0.1:
            move = UNDO
        else:
            move = chooser.choice(game.legal_actions())
        game.apply(move)
        moves.append(move)
    return moves


@settings(max_examples=12, deadline=None)
@given(
    number=st.integers(min_value=1, max_value=5000),
    classic=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=60),
)
def test_the_exact_verdicts_agree_with_the_solver_after_every_move(
    number: int, classic: bool, seed: int, count: int
) -> None:
    start = Game.from_code(DealCode(number, CLASSIC if classic else EASY))
    moves = random_moves(start, seed, count)
    review = review_game(start, moves, honest=False)
    game = start.copy()
    winnable = [solve(game, winnable_only=True).winnable]
    for move in moves:
        game.apply(move)
        winnable.append(solve(game, winnable_only=True).winnable)
    assert review.start.winnable == winnable[0]
    assert [move.to_json()["winnable_before"] for move in review.moves] == winnable[:-1]
    assert [move.after.winnable for move in review.moves] == winnable[1:]
    first_lost = next((i for i in range(1, len(winnable)) if winnable[i - 1] and not winnable[i]), None)
    assert review.first_losing_move == first_lost
    if first_lost is not None:  # the shortest win from just before it is a win
        before = start.copy()
        for move in moves[: first_lost - 1]:
            before.apply(move)
        for move in review.winning_line:
            before.apply(move)
        assert before.status == "won"


def test_a_won_game_says_how_many_moves_longer_than_the_fewest_it_was() -> None:
    start = Game.from_code("TP1-E-AAAAAAB")
    line = solve(start).line
    shortest = review_game(start, line, honest=False)
    assert shortest.status == "won" and shortest.extra_moves == 0 and shortest.first_losing_move is None
    assert [move.after.fewest for move in shortest.moves] == list(range(len(line) - 1, -1, -1))
    # A draw taken back still counts on the move counter (the app's rule): one move longer.
    longer = review_game(start, [DRAW, UNDO, *line], honest=False)
    assert longer.status == "won" and longer.moves_made == len(line) + 1 and longer.extra_moves == 1
    assert longer.moves[1].move == UNDO and longer.moves[1].after.fewest == len(line)


def test_grades_follow_the_documented_thresholds() -> None:
    assert grade(0.4, 0.4, matched=True) == "best"
    assert grade(0.40, 0.44, matched=False) == "good"
    for lost, name in GRADES:
        assert grade(0.5 - lost, 0.5, matched=False) == name
    assert grade(0.0, 0.9, matched=False) == "blunder"


def test_the_honest_chances_are_the_thorough_hints_own() -> None:
    if not compiled_available():
        pytest.skip("the Thorough hint needs the compiled rollout core to be quick")
    start = Game.from_code("TP1-C-AAAAAAG")
    played = start.copy()
    moves: list[str] = []
    while played.status == PLAYING and len(moves) < 8:
        move = greedy_move(played)
        played.apply(move)
        moves.append(move)
    code, output, _ = run("review", "TP1-C-AAAAAAG", *moves, "--seed", "11", "--json")
    assert code == 0, output
    review = json.loads(output)
    assert len(review["moves"]) == len(moves)
    graded = [move for move in review["moves"] if move["grade"] is not None]
    assert graded, review
    for move in graded:
        before = moves[: move["index"] - 1]
        code, hinted, _ = run("hint", "TP1-C-AAAAAAG", *before, "--seed", "11", "--json")
        assert code == 0, hinted
        hint = json.loads(hinted)
        assert move["played_chance"] == hint["chances"][move["move"]]
        assert move["best_move"] == hint["move"] and move["best_chance"] == hint["chance"]
    summary = review["summary"]
    assert summary["choices"] == len(graded) and summary["matched"] == summary["grades"]["best"]


def test_the_command_line_reports_refused_moves_as_replay_does_and_speaks_the_language() -> None:
    code, output, errors = run("review", "TP1-E-AAAAAAB", "QQ", DRAW, "--exact-only", "--json")
    assert code == 1
    review = json.loads(output)
    assert review["rejected"] == [{"index": 1, "move": "QQ", "reason": "invalid_card"}]
    assert [move["index"] for move in review["moves"]] == [2] and "QQ" in errors
    for key in ("winnable_at_start", "first_losing_move", "moves", "summary", "extra_moves"):
        assert key in review
    code, output, _ = run("review", "TP1-E-AAAAAAB", DRAW, "--exact-only", "--lang", "fr")
    assert code == 0 and "Gagnable dès la donne" in output and "Coup" in output
