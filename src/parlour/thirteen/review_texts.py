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
from parlour.i18n.cards import card_text
from parlour.thirteen.review import GRADES
from parlour.thirteen.sets import HAND_NAMES, Slot

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
SET_ROUND: Final = "Round {number} · deal {deal}, hand {hand}"
"""A round of a duplicate set: which deal it plays and the hand the reviewed seat held in it."""
SET_DEAL: Final = "Deal {deal}, your points with each of its hands: {hands}; {total} in all."
"""A deal of a duplicate set in the review's head: the reviewed seat's points with every hand of it."""


def _hand_held(played: Json, seat: int) -> str:
    """The name (A-D) of the hand ``seat`` held in a round of a duplicate set (its review JSON)."""
    return HAND_NAMES[Slot(played["number"], played["deal"], played["rotation"]).hand_of(seat)]


def round_label(played: Json | None, seat: int, lang: str, number: int) -> str:
    """Return "Round 5", or for a round of a duplicate set "Round 5 · deal 2, hand C" (the hand seat
    ``seat`` held), in ``lang``; ``played`` is the round's review JSON (None: not in the review)."""
    if played is None or played.get("deal") is None:
        return gettext_for(lang, DOMAIN, "Round {number}").format(number=number)
    hand = _hand_held(played, seat)
    return gettext_for(lang, DOMAIN, SET_ROUND).format(number=number, deal=played["deal"] + 1, hand=hand)


def set_lines(review: Json, lang: str) -> list[str]:
    """Return, for a duplicate set's review, one line for each deal with the reviewed seat's points
    with each hand of it it has played (by hand, A to D) and their sum; nothing for an ordinary match.
    The deals are what a set is compared by: the same cards played from every seat."""
    seat = review["seat"]
    by_deal: dict[int, dict[str, int]] = {}
    for played in review["rounds"]:
        if played.get("deal") is None or played["points"] is None:
            continue
        by_deal.setdefault(played["deal"], {})[_hand_held(played, seat)] = played["points"][seat]
    lines = []
    for deal, hands in sorted(by_deal.items()):
        shown = " · ".join(f"{hand} {points}" for hand, points in sorted(hands.items()))
        text = gettext_for(lang, DOMAIN, SET_DEAL)
        lines.append(text.format(deal=deal + 1, hands=shown, total=sum(hands.values())))
    return lines


def _pretty(move: str, lang: str) -> str:
    """Return a move as people read it: its cards with the language's letters (``7♠ R♥``), or "Passed"
    in ``lang``."""
    if move == "pass":
        return gettext_for(lang, "thirteen_web", "Passed")
    return " ".join(card_text(Card.parse(text), lang) for text in move.split())


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
    head = [s("Points: {points}").format(points=scores), *set_lines(review, lang)]
    summary = review["summary"]
    lost = decimal(summary["points_lost"], lang, 2)
    foot = [
        s(REVIEW_SUMMARY).format(count=summary["decisions"], matched=summary["matched"], lost=lost),
        s(REVIEW_NOTE),
    ]
    rounds = {played["number"]: played for played in review["rounds"]}
    first = review["rounds"][0]["number"] if review["rounds"] else 1
    steps = [round_label(rounds.get(first), review["seat"], lang, first)]
    for step in review["steps"]:
        played = _pretty(step["move"], lang)
        label = round_label(rounds.get(step["round"]), review["seat"], lang, step["round"])
        parts = [f"{step['index']}. {label}", who(step["seat"], played)]
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
