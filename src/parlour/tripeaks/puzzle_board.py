"""What TriPeaks gives the platform's puzzle pages (decision 0065): the board a player of the position
sees (face-down cards as backs, the stock as a count; no code, no hidden card), the check of a move,
and the solution shown after an answer (the deal, then the solver's win played out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from parlour.games.base import PuzzlePosition, Puzzles
from parlour.i18n.cards import card_name
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import SLOT_PLACES, TABLEAU_SIZE
from parlour.tripeaks.solver.puzzles import Census, packaged_puzzles, puzzle_of_deal
from parlour.tripeaks.texts import page_text

THEME_NAMES: Final = {
    "draw": "Draw instead",
    "hold": "Not the obvious card",
    "reveal": "Turn a card up",
    "peak": "Take a peak",
    "last_stock": "The last of the stock",
    "endgame": "Endgame",
}
"""Each theme's name (``tripeaks_site`` msgids, which the ``web`` catalog falls back on)."""
SCRIPT_TEXTS: Final = ("Draw pile", "Discard pile", "hidden card", "empty")


def game_at(position: PuzzlePosition) -> Game:
    """Return the game at a puzzle's position."""
    game = Game.from_code(position.code)
    for move in position.moves:
        game.apply(move)
    return game


def view(game: Game, lang: str) -> dict[str, Any]:
    """Return what a player of ``game`` sees: each place's card (``back`` face down, None removed), the
    free cards' places, the stock's count, the discard's top, and the visible cards' names."""
    places: list[str | None] = []
    names: dict[str, str] = {}
    for place in range(TABLEAU_SIZE):
        if game.removed(place):
            places.append(None)
        elif game.face_up(place):
            card = game.card_at(place)
            places.append(str(card))
            names[str(card)] = card_name(card, lang)
        else:
            places.append("back")
    top = game.discard_top
    if top is not None:
        names[str(top)] = card_name(top, lang)
    return {
        "places": places,
        "free": [p for p in range(TABLEAU_SIZE) if game.is_free(p)],
        "stock": game.stock_count,
        "discard": str(top) if top is not None else None,
        "names": names,
    }


def board(position: PuzzlePosition, lang: str) -> dict[str, Any]:
    """The board before the answer: what the player sees, the layout, and the rules in words."""
    game = game_at(position)
    rules = "Easy (King and Ace linked)" if game.rules.king_ace_linked else "Classic (King and Ace separate)"
    return {
        **view(game, lang),
        "slots": [list(place) for place in SLOT_PLACES],
        "rules": page_text(lang, rules),
    }


def move(position: PuzzlePosition, text: str) -> str | None:
    """Return a legal move of the position in the engine's words (``KC``, ``draw``), None otherwise."""
    words = text.strip()
    legal = game_at(position).legal_actions()
    return next((action for action in legal if action.lower() == words.lower()), None)


def solution(position: PuzzlePosition, lang: str) -> dict[str, Any]:
    """What the page shows after an answer: the answer named, the deal's code, and every position of
    the solver's win from the answer on, with each step in words."""
    game = game_at(position)
    positions, steps = [], []
    for text in (position.answer, *position.line):
        played = next(
            (game.card_at(p) for p in game.fitting_positions() if str(game.card_at(p)) == text), None
        )
        game.apply(text)
        positions.append(view(game, lang))
        steps.append(card_name(played, lang) if played is not None else page_text(lang, "draw"))
    return {
        "answer_words": steps[0],  # the answer is the line's first step
        "code": position.code,
        "positions": positions,
        "steps": steps,
    }


def from_deal(code: str, source: str) -> dict[str, Any] | None:
    """Return the most interesting puzzle of a deal whose code is public now (a past day's daily deal),
    None when it has none (it cannot be won, or no position is a fair one-move puzzle)."""
    found = puzzle_of_deal(code, source, Census())
    return None if found is None else found.to_json()


def texts(lang: str) -> Mapping[str, str]:
    """The texts TriPeaks' board script shows, and its sentences for a wrong and an illegal move."""
    return {
        **{message: page_text(lang, message) for message in SCRIPT_TEXTS},
        "wrong": page_text(lang, "Not this one. The move that keeps the deal winnable: {move}"),
        "illegal": page_text(lang, "That card does not fit on the discard pile."),
        "task": page_text(lang, "One move keeps this deal winnable: find it."),
        "fair": page_text(lang, "Face-down cards stay face down: what you see is enough."),
    }


PUZZLES: Final = Puzzles(
    packaged=packaged_puzzles,
    board=board,
    move=move,
    solution=solution,
    texts=texts,
    board_script="js/tripeaks_puzzle_board.js",
    board_template="tripeaks_puzzle_board.html",
    themes=THEME_NAMES,
    from_deal=from_deal,
)
