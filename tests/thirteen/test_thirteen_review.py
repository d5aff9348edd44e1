"""The review of a Thirteen match (``parlour thirteen review``): each round's four hands as dealt, and
the reviewed seat's decisions only, each with the expert's estimates, its best candidate and a grade
that follows the documented thresholds."""

from __future__ import annotations

import json

from click.testing import CliRunner

from parlour.cli import main
from parlour.thirteen.bots import make_bot
from parlour.thirteen.game import Match, deal_hands
from parlour.thirteen.order import text_of
from parlour.thirteen.review import GRADES, grade, review_match
from parlour.thirteen.simulate import play_match


def played() -> Match:
    bots = [
        make_bot("greedy", 1),
        make_bot("heuristic", 2),
        make_bot("heuristic", 3),
        make_bot("heuristic", 4),
    ]
    return play_match(bots, 7)


def test_grades_follow_the_documented_thresholds() -> None:
    assert grade(1.0, 1.0, matched=True) == "best"
    assert grade(1.0, 1.1, matched=False) == "good"
    for lost, name in GRADES:
        assert grade(2.0 - lost, 2.0, matched=False) == name


def test_a_review_shows_the_hands_as_dealt_and_grades_only_the_seats_decisions() -> None:
    match = played()
    moves = [str(move) for move in match.moves]
    for seat in (0, 2):
        review = review_match(match.code, moves[:60], seat=seat, seed=5)
        first = review.rounds[0]
        assert [" ".join(hand) for hand in first.hands] == [text_of(hand) for hand in deal_hands(7)]
        replay = Match.from_code(match.code)
        movers = []
        for move in moves[:60]:
            movers.append(replay.turn)
            replay.apply(replay.turn, move)  # type: ignore[arg-type]
        assert review.decisions and all(movers[d.index - 1] == seat for d in review.decisions)
        for decision in review.decisions:
            assert decision.move in decision.estimates and decision.best_move in decision.estimates
            assert decision.best == max(decision.estimates.values())
            assert decision.grade == grade(
                decision.played, decision.best, matched=decision.move == decision.best_move
            )
        assert review_match(match.code, moves[:60], seat=seat, seed=5) == review  # the same seed, the same


def test_the_command_line_reviews_a_whole_match_and_refuses_a_bad_move() -> None:
    match = played()
    moves = [str(move) for move in match.moves]
    result = CliRunner().invoke(main, ["thirteen", "review", match.code, *moves, "--json"])
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert review["status"] == "finished" and review["scores"] == list(match.scores)
    assert [round_["points"] for round_ in review["rounds"]] == [list(r.points) for r in match.results]
    summary = review["summary"]
    assert summary["decisions"] == len(review["decisions"]) == sum(summary["grades"].values())
    text = CliRunner().invoke(main, ["thirteen", "review", match.code, *moves[:30], "--lang", "fr"])
    assert text.exit_code == 0 and "Vous" in text.output and "points attendus" in text.output
    bad = CliRunner().invoke(main, ["thirteen", "review", match.code, "QQ"])
    assert bad.exit_code == 2 and "move 1" in bad.output
