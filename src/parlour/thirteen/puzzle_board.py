"""What Thirteen gives the platform's puzzle pages (decision 0065): an end of a round with every hand
shown (a bridge problem: the puzzles come from the computer players' matches of public numbers), the
check of a play, and the solution shown after an answer (a way the round goes from there)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from parlour.errors import ParlourError
from parlour.games.base import PuzzlePosition, Puzzles
from parlour.i18n import gettext_for
from parlour.i18n.cards import card_name
from parlour.thirteen.game import Match
from parlour.thirteen.move import Move
from parlour.thirteen.order import cards_of, pretty_of
from parlour.thirteen.round import SEATS, Round

DOMAIN: Final = "thirteen_web"
PACKAGED: Final = Path(__file__).with_name("data") / "puzzles.json.gz"
"""Puzzles made by ``parlour thirteen puzzles --count 300 --json``: the site's pool starts from them."""
THEME_NAMES: Final = {
    "lead": "Lead",
    "pass": "Pass",
    "bomb": "Bomb",
    "two": "Play a 2",
    "keep_two": "Keep the 2",
    "combination": "A combination",
}
"""Each theme's name (``thirteen_web`` msgids, which the ``web`` catalog falls back on)."""
PLACES: Final = ("You", "Next player", "Across", "Previous player")
"""Each seat's name as the hero sees it, in turn order from the hero."""
SCRIPT_TEXTS: Final = ("Play", "Pass", "passed", "To beat", "The table is empty: lead.", *PLACES)


def packaged_puzzles() -> list[dict[str, Any]]:
    """Return the packaged puzzles, as ``parlour thirteen puzzles --json`` printed them."""
    with gzip.open(PACKAGED, "rt", encoding="utf-8") as handle:
        found: list[dict[str, Any]] = json.load(handle)["puzzles"]
    return found


def match_at(position: PuzzlePosition) -> Match:
    """Return the match at a puzzle's position."""
    return Match.replay(position.code, position.moves)


def view(state: Round, hero: int, lang: str) -> dict[str, Any]:
    """Return the end of the round as the puzzle shows it: every seat's cards from the hero's place on
    (the hero first), who passed, the cards to beat and who played them, and the cards' names."""
    names: dict[str, str] = {}

    def codes(mask: int) -> list[str]:
        found = []
        for card in cards_of(mask):
            names[str(card)] = card_name(card, lang)
            found.append(str(card))
        return found

    seats = []
    for offset in range(SEATS):
        seat = (hero + offset) % SEATS
        seats.append(
            {
                "seat": seat,
                "place": gettext_for(lang, DOMAIN, PLACES[offset]),
                "cards": codes(state.hands[seat]),
                "passed": bool(state.passed >> seat & 1),
                "out": seat in state.finished,
                "turn": state.turn == seat,
            }
        )
    by = None if state.owner is None else (state.owner - hero) % SEATS
    return {"seats": seats, "table": codes(state.table_mask), "table_by": by, "names": names}


def board(position: PuzzlePosition, lang: str) -> dict[str, Any]:
    """The board before the answer: every hand, the table, whether the hero may pass."""
    state = match_at(position).round
    assert state.turn is not None
    return {**view(state, state.turn, lang), "can_pass": state.can_pass(state.turn)}


def move(position: PuzzlePosition, text: str) -> str | None:
    """Return a legal move of the position in the command line's words (``3S 4S 5S``, ``pass``), None
    for unreadable words or a move the rules refuse there."""
    state = match_at(position).round
    try:
        chosen = Move.parse(text)
        assert state.turn is not None
        state.check(state.turn, chosen.mask)
    except (ParlourError, ValueError):
        return None
    return str(chosen)


def _words(mask: int, lang: str) -> str:
    return gettext_for(lang, DOMAIN, "Pass") if mask == 0 else pretty_of(mask)


def solution(position: PuzzlePosition, lang: str) -> dict[str, Any]:
    """What the page shows after an answer: the answer in cards, the match's code, and every position of
    a way the round goes from the answer on until the hero is out, with each step in words."""
    state = match_at(position).round
    hero = state.turn
    assert hero is not None
    positions, steps = [], []
    for text in (position.answer, *position.line[1:]):
        mask = Move.parse(text).mask
        seat = state.turn
        assert seat is not None
        place = gettext_for(lang, DOMAIN, PLACES[(seat - hero) % SEATS])
        state.push(mask)
        positions.append({**view(state, hero, lang), "can_pass": False})
        steps.append(f"{place}: {_words(mask, lang)}")
    return {
        "answer_words": _words(Move.parse(position.answer).mask, lang),
        "code": position.code,
        "positions": positions,
        "steps": steps,
    }


def texts(lang: str) -> Mapping[str, str]:
    """The texts Thirteen's board script shows, and its sentences for a wrong and an illegal move."""
    return {
        **{message: gettext_for(lang, DOMAIN, message) for message in SCRIPT_TEXTS},
        "wrong": gettext_for(lang, DOMAIN, "Not this one. The play that wins: {move}"),
        "illegal": gettext_for(lang, DOMAIN, "That play is not allowed here."),
        "task": gettext_for(
            lang, DOMAIN, "One play makes you go out first, whatever the others do: find it."
        ),
        "fair": gettext_for(lang, DOMAIN, "Every hand is shown."),
    }


PUZZLES: Final = Puzzles(
    packaged=packaged_puzzles,
    board=board,
    move=move,
    solution=solution,
    texts=texts,
    board_script="js/thirteen_puzzle_board.js",
    board_template="thirteen_puzzle_board.html",
    themes=THEME_NAMES,
)
