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


def test_a_duplicate_sets_review_names_each_rounds_deal_and_hand_and_sums_each_deal() -> None:
    from parlour.thirteen import Rules
    from parlour.thirteen.review_texts import review_texts, set_lines
    from parlour.thirteen.sets import HAND_NAMES, comparison

    rules = Rules(duplicate_deals=2)
    match = Match(11, rules)
    bots = [make_bot(name, seat) for seat, name in enumerate(("heuristic", "greedy", "greedy", "greedy"))]
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.push(bots[seat].choose(match.view(seat)))
    moves = [str(move) for move in match.moves]
    review = review_match(match.code, moves, seat=1, rules=rules, seed=3).to_json()
    assert [(r["number"], r["deal"], r["rotation"]) for r in review["rounds"]] == [
        (n, (n - 1) % 2, (n - 1) // 2) for n in range(1, 9)
    ]
    # Seat 1's points with each hand of each deal, as the table's comparison counts them.
    expected = {(row.deal, HAND_NAMES[row.hand]): row.points[1] for row in comparison(rules, match.results)}
    lines = set_lines(review, "en")
    assert len(lines) == 2
    for deal, line in enumerate(lines):
        hands = " · ".join(f"{h} {expected[(deal, h)]}" for h in HAND_NAMES)
        total = sum(expected[(deal, h)] or 0 for h in HAND_NAMES)
        assert line == f"Deal {deal + 1}, your points with each of its hands: {hands}; {total} in all."
    assert sum(sum(expected[(deal, h)] or 0 for h in HAND_NAMES) for deal in (0, 1)) == match.scores[1]
    said = review_texts(review, "fr", ["Vous", "Ouest", "Nord", "Est"])
    assert said["head"][1:] == set_lines(review, "fr") and said["head"][1].startswith("Donne 1, vos points")
    fifth = next(step for step in said["steps"] if step.startswith(f"{review['rounds'][4]['first_move']}. "))
    assert "Manche 5 · donne 1, main " + HAND_NAMES[(1 + 2) % 4] in fifth  # round 5: deal 1, rotation 2
    plain = review_match(match.code, moves[:20], seat=1, seed=3).to_json()  # the same code as a match
    assert all("deal" not in r for r in plain["rounds"]) and set_lines(plain, "en") == []
