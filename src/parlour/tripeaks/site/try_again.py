"""Try again from here (issue 53): in the review of one of your finished TriPeaks games, play on from
any position, unranked, with the solver's exact verdict after each move.

``POST /api/tripeaks/review/{game_id}/try`` takes ``{"at": i, "moves": [...]}``: the position after the
game's first ``i`` reviewed moves, then the moves tried from there. Nothing is kept: the page holds the
moves tried, and going back to any point is sending fewer. The game is over, so every card may show.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.server.owners.review_pool import ReviewsBusy
from parlour.server.pages.requests import (
    BadBody,
    body_refusal,
    known_player,
    parlour_of,
    read_body,
    refused,
    request_language,
)
from parlour.server.pages.reviews import NoReview, review_of
from parlour.store import GameOpen, RankedDealOpen, UnknownGame
from parlour.tripeaks.definition import NAME, positions_of
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.solver.solve import solve
from parlour.tripeaks.texts import page_text

router = APIRouter()

MOST_MOVES: Final = 300
"""The most moves a try may hold (a deal is over long before)."""


class TryBody(BaseModel):
    """Where to start (``at``: the number of the game's moves made first) and the moves tried."""

    at: int = Field(ge=0, le=1000)
    moves: list[str] = Field(default_factory=list, max_length=MOST_MOVES)


def _verdict(game: Game, lang: str) -> dict[str, Any]:
    """The solver's exact verdict of a position, in words too."""
    if game.status != "playing":
        words = (
            page_text(lang, "You won!") if game.status == "won" else page_text(lang, "No more moves possible")
        )
        return {"winnable": game.status == "won", "left": game.cards_left, "words": words}
    answer = solve(game, winnable_only=False)
    if answer.winnable:
        words = page_text(lang, "Still winnable: a win in {n} more moves.").format(n=len(answer.line))
    else:
        words = page_text(lang, "Lost from here: at best {n} peak cards stay.").format(n=answer.best_left)
    return {"winnable": answer.winnable, "left": answer.best_left, "line": list(answer.line), "words": words}


@router.post("/api/tripeaks/review/{game_id}/try")
async def try_from_here(request: Request, game_id: str) -> Response:
    """Play on from a position of a finished game of the player: 200 ``{"position", "free", "legal",
    "verdict"}``; 400 ``illegal_move`` (the move's index and why), ``invalid_input``; 404
    ``no_such_game``; 409 while the game is played or its deal still ranked; 429 past 120 a minute."""
    player = await known_player(request)
    lang = await request_language(request)
    if player is None:
        return await refused(request, "no_such_game", 404)
    await parlour_of(request).limits.hit("try_again", str(player.id))
    try:
        body = await read_body(request, TryBody)
    except BadBody as error:
        return body_refusal(error, lang)
    try:
        _, review = await review_of(request, player.id, game_id, NAME)
    except (UnknownGame, NoReview):
        return await refused(request, "no_such_game", 404)
    except RankedDealOpen:
        return await refused(request, "ranked_open", 409)
    except GameOpen:
        return await refused(request, "game_open", 409)
    except ReviewsBusy:
        return await refused(request, "reviews_busy", 503)
    played = [move["move"] for move in review["moves"]]
    game = Game.from_code(review["code"])
    for move in played[: min(body.at, len(played))]:
        game.apply(move)
    for index, move in enumerate(body.moves):
        try:
            game.apply(move)
        except ParlourError as error:
            return JSONResponse(
                {"code": "illegal_move", "index": index, "message": str(error)[:200]}, status_code=400
            )
    [position] = positions_of(game, [])
    return JSONResponse(
        {
            "position": position,
            "free": [p for p in range(TABLEAU_SIZE) if game.is_free(p)],
            "legal": game.legal_actions(),
            "verdict": _verdict(game, lang),
        }
    )
