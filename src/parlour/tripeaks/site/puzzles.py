"""TriPeaks puzzles on the web (issue 53, decision 0065): find the one move that keeps the deal winnable.

- ``GET /tripeaks/puzzles``: the next puzzle near the player's puzzle rating (rated: the first try at
  a puzzle moves both ratings);
- ``GET /tripeaks/puzzles/daily``: the day's puzzle, the same for everybody;
- ``GET /tripeaks/puzzles/streak``: puzzles one after another, each harder, until one is missed
  (unrated; the best streak is kept);
- ``GET /tripeaks/puzzles/{id}``: one puzzle by its id (a link to share);
- ``POST /api/puzzles/tripeaks/{id}/answer`` (``{"move": "KC" | "draw", "mode"}``): the verdict, the
  ratings before and after, the deal's code, and the solver's win from the position after the answer,
  every position of it, to be played out on the board.

The page shows the position as a player of that deal would see it: face-down cards are backs, the
stock a count; neither the code nor a hidden card is sent before the attempt (the code would let a
solver answer). The pool is filled from the packaged puzzles the first time it is found empty.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.responses import Response

from parlour.games.puzzle_ratings import Glicko
from parlour.i18n import labelled
from parlour.i18n.cards import card_name, rank_letters
from parlour.server.context import Parlour
from parlour.server.pages.requests import (
    BadBody,
    body_refusal,
    current_player,
    known_player,
    parlour_of,
    read_body,
    refused,
    render,
    request_language,
)
from parlour.store.puzzles import PuzzleRecord, UnknownPuzzle
from parlour.tripeaks.definition import NAME
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import SLOT_PLACES, TABLEAU_SIZE
from parlour.tripeaks.solver.puzzles import packaged_puzzles
from parlour.tripeaks.texts import page_text

router = APIRouter()

MODES: Final = ("rated", "daily", "streak")
PUZZLE_TEXTS: Final = (
    "Draw pile",
    "Discard pile",
    "hidden card",
    "empty",
    "Correct!",
    "Not this one. The move that keeps the deal winnable: {move}",
    "That card does not fit on the discard pile.",
    "Your puzzle rating: {before} → {after}",
    "Show the solution",
    "Next puzzle",
    "Try another streak",
    "Streak: {n}",
    "The deal: {code}",
    "Step {step} of {count}",
)
"""Texts the puzzle page's script shows (``web`` catalog, TriPeaks' own ``tripeaks_site`` behind it)."""
THEME_NAMES: Final = {
    "draw": "Draw instead",
    "hold": "Not the obvious card",
    "reveal": "Turn a card up",
    "peak": "Take a peak",
    "last_stock": "The last of the stock",
    "endgame": "Endgame",
}
DIFFICULTY_NAMES: Final = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
_FILLED: set[int] = set()
"""The stores (by id) whose pool was found filled: checked once a process."""


async def ensure_pool(parlour: Parlour) -> None:
    """Fill the store's TriPeaks puzzles from the packaged ones when it has none."""
    if id(parlour.store) in _FILLED:
        return
    if await parlour.call(parlour.store.puzzle_count, NAME) == 0:
        await parlour.write(parlour.store.add_puzzles, NAME, packaged_puzzles())
    _FILLED.add(id(parlour.store))


def position_of(puzzle: PuzzleRecord) -> Game:
    """Return the game at a puzzle's position."""
    game = Game.from_code(puzzle.code)
    for move in puzzle.moves:
        game.apply(move)
    return game


def board_view(game: Game, lang: str) -> dict[str, Any]:
    """Return what a player of ``game`` sees: each place's card (``back`` face down, None removed),
    the free cards' places, the stock's count, the discard's top, and the visible cards' names."""
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


def _shown(rating: Glicko | None) -> dict[str, Any] | None:
    return None if rating is None else {"rating": round(rating.rating), "rd": round(rating.rd)}


def _streak_so_far(attempts: list[bool]) -> int:
    """Return how many streak puzzles in a row the last attempts solved (newest last)."""
    count = 0
    for solved in reversed(attempts):
        if not solved:
            break
        count += 1
    return count


async def _page(request: Request, mode: str, puzzle: PuzzleRecord, streak: int = 0) -> Response:
    parlour = parlour_of(request)
    player = await known_player(request)
    lang = await request_language(request)
    rating = await parlour.call(parlour.store.puzzle_rating, NAME, player.id if player else None)
    best = await parlour.call(parlour.store.best_streak, NAME, player.id if player else None)
    game = position_of(puzzle)
    texts = {message: page_text(lang, message) for message in PUZZLE_TEXTS}
    return await render(
        request,
        "tripeaks_puzzle.html",
        {
            "mode": mode,
            "puzzle": puzzle,
            "rating": _shown(rating),
            "streak": streak,
            "best_streak": best,
            "themes": [
                page_text(lang, THEME_NAMES[theme]) for theme in puzzle.themes if theme in THEME_NAMES
            ],
            "difficulty": page_text(lang, DIFFICULTY_NAMES.get(puzzle.difficulty, "Medium")),
            "rules": "easy" if game.rules.king_ace_linked else "classic",
            "moves_made": len(puzzle.moves),
            "tt": lambda message: page_text(lang, message),
            "script_data": {
                "puzzle": puzzle.puzzle_id,
                "mode": mode,
                "streak": streak,
                "board": board_view(game, lang),
                "slots": [list(place) for place in SLOT_PLACES],
                "rankLetters": rank_letters(lang),
                "texts": texts,
                "label": labelled("{label}", lang),
            },
        },
    )


@router.get("/tripeaks/puzzles", include_in_schema=False)
async def puzzles_page(request: Request) -> Response:
    """The next puzzle near the player's puzzle rating (1500 for a visitor)."""
    parlour = parlour_of(request)
    await ensure_pool(parlour)
    player = await known_player(request)
    try:
        puzzle = await parlour.call(parlour.store.next_puzzle, NAME, player.id if player else None)
    except UnknownPuzzle:
        puzzle = await parlour.call(parlour.store.daily_puzzle, NAME, datetime.now(UTC).date())
    return await _page(request, "rated", puzzle)


@router.get("/tripeaks/puzzles/daily", include_in_schema=False)
async def daily_puzzle_page(request: Request) -> Response:
    """The day's puzzle (UTC), the same for everybody."""
    parlour = parlour_of(request)
    await ensure_pool(parlour)
    puzzle = await parlour.call(parlour.store.daily_puzzle, NAME, datetime.now(UTC).date())
    return await _page(request, "daily", puzzle)


@router.get("/tripeaks/puzzles/streak", include_in_schema=False)
async def streak_page(request: Request) -> Response:
    """The next puzzle of the player's streak: harder with each one solved, until one is missed."""
    parlour = parlour_of(request)
    await ensure_pool(parlour)
    player = await known_player(request)
    streak = 0
    if player is not None:
        streak = _streak_so_far(await parlour.call(parlour.store.streak_attempts, NAME, player.id))
    try:
        puzzle = await parlour.call(parlour.store.streak_puzzle, NAME, player.id if player else None, streak)
    except UnknownPuzzle:
        raise HTTPException(404) from None
    return await _page(request, "streak", puzzle, streak)


@router.get("/tripeaks/puzzles/{puzzle_id}", include_in_schema=False)
async def one_puzzle_page(request: Request, puzzle_id: str) -> Response:
    """One puzzle by its id (a shared link); rated like the next puzzle."""
    parlour = parlour_of(request)
    await ensure_pool(parlour)
    try:
        puzzle = await parlour.call(parlour.store.puzzle, NAME, puzzle_id)
    except UnknownPuzzle:
        raise HTTPException(404) from None
    return await _page(request, "rated", puzzle)


class AnswerBody(BaseModel):
    """An attempt: the move (``KC``, ``draw``) and the page's mode."""

    move: str = Field(min_length=1, max_length=8)
    mode: str = Field(default="rated", pattern="^(rated|daily|streak)$")


@router.post("/api/puzzles/tripeaks/{puzzle_id}/answer")
async def answer(request: Request, puzzle_id: str) -> Response:
    """Judge an attempt at a puzzle and keep it. 200 ``{"solved", "answer", "answer_name", "rated",
    "rating": {"before", "after"}, "puzzle_rating", "code", "line", "positions", "streak",
    "best_streak"}``; 400 ``illegal_move`` (a card that does not fit, a place not free: nothing is
    kept, the player may choose again) or ``invalid_input``; 404 ``no_such_puzzle``."""
    parlour = parlour_of(request)
    lang = await request_language(request)
    try:
        body = await read_body(request, AnswerBody)
    except BadBody as error:
        return body_refusal(error, lang)
    try:
        puzzle = await parlour.call(parlour.store.puzzle, NAME, puzzle_id)
    except UnknownPuzzle:
        return await refused(request, "no_such_puzzle", 404)
    game = position_of(puzzle)
    if body.move not in game.legal_actions():
        message = page_text(lang, "That card does not fit on the discard pile.")
        return JSONResponse({"code": "illegal_move", "message": message}, status_code=400)
    player = await current_player(request)
    result = await parlour.write(
        parlour.store.attempt_puzzle, NAME, puzzle.puzzle_id, player.id, body.move, body.mode
    )
    streak = best = 0
    if body.mode == "streak":
        streak = _streak_so_far(await parlour.call(parlour.store.streak_attempts, NAME, player.id))
        if not result.solved:
            solved_before = _streak_so_far(
                (await parlour.call(parlour.store.streak_attempts, NAME, player.id))[:-1]
            )
            best = await parlour.write(parlour.store.end_streak, NAME, player.id, solved_before)
        else:
            best = await parlour.call(parlour.store.best_streak, NAME, player.id)
    positions = []
    shown = game.copy()
    shown.apply(puzzle.answer)
    positions.append(board_view(shown, lang))
    for move in puzzle.line:
        shown.apply(move)
        positions.append(board_view(shown, lang))
    answer_card = next(
        (game.card_at(p) for p in game.fitting_positions() if str(game.card_at(p)) == puzzle.answer), None
    )
    return JSONResponse(
        {
            "solved": result.solved,
            "answer": puzzle.answer,
            "answer_name": card_name(answer_card, lang)
            if answer_card is not None
            else page_text(lang, "draw"),
            "rated": result.rated,
            "rating": {"before": _shown(result.player_before), "after": _shown(result.player_after)},
            "puzzle_rating": _shown(result.puzzle_after),
            "code": puzzle.code,
            "line": list(puzzle.line),
            "positions": positions,
            "streak": streak,
            "best_streak": best,
        }
    )
