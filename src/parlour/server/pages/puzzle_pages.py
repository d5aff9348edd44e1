"""The puzzles of every game that has them (issue 53, decision 0065): the pages and the answer.

- ``GET /{game}/puzzles``: the next puzzle near the player's puzzle rating (rated: the first try at a
  puzzle moves both ratings);
- ``GET /{game}/puzzles/daily``: the day's puzzle (UTC), the same for everybody;
- ``GET /{game}/puzzles/streak``: puzzles one after another, each harder, until one is missed
  (unrated; the best streak is kept);
- ``GET /{game}/puzzles/{id}``: one puzzle by its id (a link to share);
- ``POST /api/puzzles/{game}/{id}/answer`` (``{"move", "mode"}``): the verdict, the ratings before and
  after, and the solution (the deal, the answer in words, the positions that follow).

What a page shows of a puzzle before it is answered is the game's ``board`` (what a player of the
position may see); nothing that would let a program answer for the player (a TriPeaks deal's code)
reaches the page before the answer. The pool is filled from the game's packaged puzzles the first time
it is found empty.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.responses import Response

from parlour.games.base import GameDefinition, PuzzlePosition, Puzzles
from parlour.games.puzzle_ratings import Glicko
from parlour.i18n import labelled
from parlour.i18n.cards import rank_letters
from parlour.server.context import Parlour
from parlour.server.i18n import Texts
from parlour.server.pages.requests import (
    BadBody,
    body_refusal,
    current_player,
    game_having,
    known_player,
    parlour_of,
    read_body,
    refused,
    render,
    request_language,
)
from parlour.store.errors import StoreUnavailable, conflict
from parlour.store.puzzles import PuzzleRecord, UnknownPuzzle

router = APIRouter()

PAGE_TEXTS: Final = (
    "Correct!",
    "Your puzzle rating: {before} → {after}",
    "Next puzzle",
    "Try another streak",
    "Streak: {n}",
    "The deal: {code}",
    "Step {step} of {count}",
)
"""Texts the platform's puzzle script shows (``web`` catalog)."""
DIFFICULTY_NAMES: Final = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}


def _game(request: Request, game: str) -> tuple[GameDefinition, Puzzles]:
    definition = game_having(request, game, lambda found: found.puzzles is not None)
    assert definition.puzzles is not None
    return definition, definition.puzzles


async def ensure_pool(parlour: Parlour, game: GameDefinition, puzzles: Puzzles) -> None:
    """Fill the store's puzzles of ``game`` from its packaged ones when it has none."""
    if game.name in parlour.puzzle_pools:
        return
    if await parlour.call(parlour.store.puzzle_count, game.name) == 0:
        await parlour.write(parlour.store.add_puzzles, game.name, puzzles.packaged())
    parlour.puzzle_pools.add(game.name)


HARVEST_DAYS: Final = 7
"""How many past days' daily deals each process turns into puzzles (once each) when it sweeps."""


async def harvest(parlour: Parlour) -> int:
    """Add to each game's pool the puzzle of each of its daily deals of the last :data:`HARVEST_DAYS`
    days that are over (their codes are public: no ranked deal is used), once a process; return how
    many were added. Two processes adding the same puzzle keep one (a puzzle is its position)."""
    added = 0
    today = datetime.now(UTC).date()
    for definition in parlour.games:
        puzzles, daily = definition.puzzles, definition.daily
        if puzzles is None or puzzles.from_deal is None or daily is None:
            continue
        make = puzzles.from_deal
        for back in range(1, HARVEST_DAYS + 1):
            day = today - timedelta(days=back)
            for rules in daily.rules_keys:
                key = (definition.name, rules, day)
                if key in parlour.harvested:
                    continue
                deal = await parlour.call(parlour.store.daily_deal, definition.name, rules, day)
                found = await parlour.call(make, deal.code, f"daily {day.isoformat()}")
                if found is not None:
                    try:
                        added += await parlour.write(parlour.store.add_puzzles, definition.name, [found])
                    except StoreUnavailable as error:  # another process added it at the same moment
                        if not conflict(error):
                            raise
                parlour.harvested.add(key)
    return added


def position(puzzle: PuzzleRecord) -> PuzzlePosition:
    """Return a stored puzzle as its game reads it."""
    return PuzzlePosition(puzzle.code, puzzle.moves, puzzle.answer, puzzle.line)


def _shown(rating: Glicko | None) -> dict[str, Any] | None:
    return None if rating is None else {"rating": round(rating.rating), "rd": round(rating.rd)}


def streak_so_far(attempts: list[bool]) -> int:
    """Return how many streak puzzles in a row the last attempts solved (newest last)."""
    count = 0
    for solved in reversed(attempts):
        if not solved:
            break
        count += 1
    return count


async def _page(request: Request, game: str, mode: str, pick: Any) -> Response:
    parlour = parlour_of(request)
    definition, puzzles = _game(request, game)
    await ensure_pool(parlour, definition, puzzles)
    player = await known_player(request)
    player_id = player.id if player else None
    streak = 0
    if mode == "streak" and player_id is not None:
        streak = streak_so_far(await parlour.call(parlour.store.streak_attempts, game, player_id))
    try:
        puzzle: PuzzleRecord = await pick(parlour, game, player_id, streak)
    except UnknownPuzzle:
        raise HTTPException(404) from None
    lang = await request_language(request)
    texts = Texts(lang)
    rating = await parlour.call(parlour.store.puzzle_rating, game, player_id)
    best = await parlour.call(parlour.store.best_streak, game, player_id)
    at = position(puzzle)
    board = puzzles.board(at, lang)
    return await render(
        request,
        "puzzle.html",
        {
            "game": definition,
            "mode": mode,
            "puzzle": puzzle,
            "rating": _shown(rating),
            "streak": streak,
            "best_streak": best,
            "themes": [texts(puzzles.themes[theme]) for theme in puzzle.themes if theme in puzzles.themes],
            "difficulty": texts(DIFFICULTY_NAMES.get(puzzle.difficulty, "Medium")),
            "board": board,
            "script_data": {
                "game": game,
                "puzzle": puzzle.puzzle_id,
                "mode": mode,
                "streak": streak,
                "board": board,
                "boardScript": puzzles.board_script,
                "rankLetters": rank_letters(lang),
                "texts": {**{message: texts(message) for message in PAGE_TEXTS}, **puzzles.texts(lang)},
                "label": labelled("{label}", lang),
            },
        },
    )


async def _next(parlour: Parlour, game: str, player_id: int | None, _streak: int) -> PuzzleRecord:
    try:
        return await parlour.call(parlour.store.next_puzzle, game, player_id)
    except UnknownPuzzle:  # every puzzle tried: the day's, again
        return await parlour.call(parlour.store.daily_puzzle, game, datetime.now(UTC).date())


async def _daily(parlour: Parlour, game: str, _player_id: int | None, _streak: int) -> PuzzleRecord:
    return await parlour.call(parlour.store.daily_puzzle, game, datetime.now(UTC).date())


async def _streak(parlour: Parlour, game: str, player_id: int | None, streak: int) -> PuzzleRecord:
    return await parlour.call(parlour.store.streak_puzzle, game, player_id, streak)


@router.get("/{game}/puzzles", include_in_schema=False)
async def puzzles_page(request: Request, game: str) -> Response:
    """The next puzzle near the player's puzzle rating (1500 for a visitor)."""
    return await _page(request, game, "rated", _next)


@router.get("/{game}/puzzles/daily", include_in_schema=False)
async def daily_puzzle_page(request: Request, game: str) -> Response:
    """The day's puzzle (UTC), the same for everybody."""
    return await _page(request, game, "daily", _daily)


@router.get("/{game}/puzzles/streak", include_in_schema=False)
async def streak_page(request: Request, game: str) -> Response:
    """The next puzzle of the player's streak: harder with each one solved, until one is missed."""
    return await _page(request, game, "streak", _streak)


@router.get("/{game}/puzzles/{puzzle_id}", include_in_schema=False)
async def one_puzzle_page(request: Request, game: str, puzzle_id: str) -> Response:
    """One puzzle by its id (a shared link); rated like the next puzzle."""

    async def that_one(parlour: Parlour, name: str, _player_id: int | None, _streak: int) -> PuzzleRecord:
        return await parlour.call(parlour.store.puzzle, name, puzzle_id)

    return await _page(request, game, "rated", that_one)


class AnswerBody(BaseModel):
    """An attempt: the move, in the game's words (``KC``, ``draw``; ``3S 4S 5S``, ``pass``), and the
    page's mode."""

    move: str = Field(min_length=1, max_length=80)
    mode: str = Field(default="rated", pattern="^(rated|daily|streak)$")


@router.post("/api/puzzles/{game}/{puzzle_id}/answer")
async def answer(request: Request, game: str, puzzle_id: str) -> Response:
    """Judge an attempt at a puzzle and keep it. 200 ``{"solved", "answer", "answer_words", "rated",
    "rating": {"before", "after"}, "puzzle_rating", "code", "positions", "steps", "streak",
    "best_streak"}``; 400 ``illegal_move`` (not a legal move there: nothing is kept, the player may
    choose again) or ``invalid_input``; 404 ``no_such_puzzle``; 429 past 60 answers a minute."""
    parlour = parlour_of(request)
    _, puzzles = _game(request, game)
    lang = await request_language(request)
    try:
        body = await read_body(request, AnswerBody)
    except BadBody as error:
        return body_refusal(error, lang)
    try:
        puzzle = await parlour.call(parlour.store.puzzle, game, puzzle_id)
    except UnknownPuzzle:
        return await refused(request, "no_such_puzzle", 404)
    at = position(puzzle)
    move = puzzles.move(at, body.move)
    if move is None:
        message = puzzles.texts(lang).get("illegal", Texts(lang)("That move is not allowed now."))
        return JSONResponse({"code": "illegal_move", "message": message}, status_code=400)
    player = await current_player(request)
    await parlour.limits.hit("puzzle", str(player.id))
    result = await parlour.write(
        parlour.store.attempt_puzzle, game, puzzle.puzzle_id, player.id, move, body.mode
    )
    streak = best = 0
    if body.mode == "streak":
        attempts = await parlour.call(parlour.store.streak_attempts, game, player.id)
        streak = streak_so_far(attempts)
        if result.solved:
            best = max(streak, await parlour.call(parlour.store.best_streak, game, player.id))
        else:
            best = await parlour.write(
                parlour.store.end_streak, game, player.id, streak_so_far(attempts[:-1])
            )
    return JSONResponse(
        {
            "solved": result.solved,
            "answer": puzzle.answer,
            "rated": result.rated,
            "rating": {"before": _shown(result.player_before), "after": _shown(result.player_after)},
            "puzzle_rating": _shown(result.puzzle_after),
            "streak": streak,
            "best_streak": best,
            **puzzles.solution(at, lang),
        }
    )
