"""What the review of a Thirteen match shows: every position of the match (the four hands and the
table after each move, read from the review's dealt hands and moves) and what the review says in a
language, for the review page and the terminal.

The match is over when it is reviewed (its code and salt are public), so every hand may be shown; the
expert's estimates in the review were made from the reviewed seat's view alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from parlour.cards import Card
from parlour.games.base import Json
from parlour.grades import names
from parlour.i18n import decimal, gettext_for
from parlour.thirteen.review import GRADES

DOMAIN: Final = "thirteen"
"""The catalog of the review's texts (the command line's ``parlour thirteen review`` says the same)."""
REVIEW_SUMMARY: Final = (
    "Decisions: {count}; the expert's own choice: {matched}; round points lost in all: {lost}."
)
REVIEW_NOTE: Final = (
    "The estimates are the expert's, from your seat's view only; "
    "the other hands are shown because the match is over."
)
GRADE_NAMES: Final = names(GRADES)
"""The grades a decision may have, best first."""


def _pretty(move: str, lang: str) -> str:
    """Return a move as people read it: its cards (``7♠ 7♥``), or "Passed" in ``lang``."""
    if move == "pass":
        return gettext_for(lang, "thirteen_web", "Passed")
    return " ".join(Card.parse(text).pretty() for text in move.split())


def review_positions(review: Json) -> list[Json]:
    """Return the match's positions: the deal of the first round, then the position after each move,
    each ``{"round", "hands": [4 lists of card codes], "table": [codes], "seat", "move"}`` (``seat``
    and ``move`` None for the deal). A round's first move starts from that round's dealt hands."""
    rounds = {played["number"]: played for played in review["rounds"]}
    first_round = review["rounds"][0] if review["rounds"] else None
    hands: list[list[str]] = [list(hand) for hand in first_round["hands"]] if first_round else [[]] * 4
    table: list[str] = []
    start = first_round["number"] if first_round else 1
    positions: list[Json] = [{"round": start, "hands": hands, "table": [], "seat": None, "move": None}]
    current = positions[0]["round"]
    for step in review["steps"]:
        if step["round"] != current:
            current = step["round"]
            hands = [list(hand) for hand in rounds[current]["hands"]]
            table = []
        hands = [list(hand) for hand in hands]
        if step["move"] != "pass":
            played = step["move"].split()
            hands[step["seat"]] = [card for card in hands[step["seat"]] if card not in played]
            table = played
        if step["cleared"]:
            table = []
        positions.append(
            {"round": current, "hands": hands, "table": table, "seat": step["seat"], "move": step["move"]}
        )
    return positions


def review_texts(review: Json, lang: str, seat_names: Sequence[str]) -> dict[str, Any]:
    """Return what a review (:func:`parlour.thirteen.review.review_match`'s JSON) says in ``lang``:
    ``head``, the final scores; ``foot``, the decisions' summary and how they were judged; ``steps``,
    one line for the deal and for each move (who played what, and at the seat's decisions the points
    the expert expects of the move and of its best candidate, with the grade); ``grades``, each
    grade's name."""

    def s(message: str) -> str:
        return gettext_for(lang, DOMAIN, message)

    def who(seat: int, text: str) -> str:
        return s("{player}: {text}").format(player=seat_names[seat], text=text)

    decisions = {decision["index"]: decision for decision in review["decisions"]}
    scores = ", ".join(who(seat, str(points)) for seat, points in enumerate(review["scores"]))
    head = [s("Points: {points}").format(points=scores)]
    summary = review["summary"]
    lost = decimal(summary["points_lost"], lang, 2)
    foot = [
        s(REVIEW_SUMMARY).format(count=summary["decisions"], matched=summary["matched"], lost=lost),
        s(REVIEW_NOTE),
    ]
    first = review["rounds"][0]["number"] if review["rounds"] else 1
    steps = [s("Round {number}").format(number=first)]
    for step in review["steps"]:
        played = _pretty(step["move"], lang)
        parts = [
            f"{step['index']}. {s('Round {number}').format(number=step['round'])}",
            who(step["seat"], played),
        ]
        decision = decisions.get(step["index"])
        if decision is not None:
            parts.append(s(decision["grade"]))
            line = s("Move {index}: {move}, {points} points expected").format(
                index=decision["index"], move=played, points=decimal(decision["played_points"], lang, 2)
            )
            if decision["best_move"] != decision["move"]:
                line += "; " + s("best {move}, {points}").format(
                    move=_pretty(decision["best_move"], lang),
                    points=decimal(decision["best_points"], lang, 2),
                )
            parts.append(line)
        steps.append(" · ".join(parts))
    return {"head": head, "foot": foot, "steps": steps, "grades": {name: s(name) for name in GRADE_NAMES}}
