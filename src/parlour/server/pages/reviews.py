"""Reviews of finished games: ``GET /api/games/{game_id}/review``.

A review may follow from every hidden card of a deal (a solver may see them all), so it is given
only for a game that is over, and only to a person who played it. It is computed once, off the event
loop, in a small pool of worker processes (a review takes a fraction of a second to seconds of CPU),
kept with the game, and given again at once. A second request for a review being computed waits for
the same computation; when too many are waiting, a request is told to come back shortly.
"""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import Json
from parlour.server.i18n import Texts, protocol_reason
from parlour.server.owners.review_pool import ReviewsBusy
from parlour.server.pages.requests import (
    known_player,
    parlour_of,
    refused,
    render_error_page,
    request_language,
)
from parlour.store import GameOpen, RankedDealOpen, StoredGame, UnknownGame

RETRY_AFTER: Final = 5
"""Seconds a request told that reviews are busy waits before it asks again."""

router = APIRouter()


class NoReview(ParlourError):
    """The game has no reviews."""

    code = "no_review"


async def review_of(
    request: Request, player_id: int, game_id: str, game: str | None = None
) -> tuple[StoredGame, Json]:
    """Return a finished game the player played (of ``game``, when it is named) and its review: the
    kept one, else one computed now in the worker pool (counted against the player's rate limit) and
    kept.

    Raises:
        UnknownGame: no such game of this player. GameOpen: it is being played. NoReview: its game
        has no reviews, or is not ``game``. ReviewsBusy: too many are being computed. RateLimited: too
        many asked.
    """
    parlour = parlour_of(request)
    record, seat, kept = await parlour.call(parlour.store.finished_record, game_id, player_id)
    definition = parlour.games.find(record.game)
    if definition is None or not definition.reviews or game not in (None, record.game):
        raise NoReview(f"{record.game} games have no reviews")
    if record.status not in definition.reviewed:
        raise NoReview(f"a {record.game} game that ended {record.status} has no review")
    if kept is None:
        await parlour.limits.hit("review", str(player_id))
        kept = await parlour.reviews.review(definition, record, seat)
        await parlour.write(parlour.store.keep_review, game_id, player_id, kept)
    return record, kept


async def review_for_page(request: Request, game_id: str, game: str) -> tuple[StoredGame, Json] | Response:
    """Return a finished ``game`` the request's player played and its review, for a review page; or
    the page a browser gets instead: 404 for no such game of the player (or one with no review), 409
    while it is being played (its cards are hidden), 503 when reviews are busy."""
    player = await known_player(request)
    lang = await request_language(request)
    if player is None:
        return await render_error_page(request, 404, lang, Texts(lang)("There is no such page."))
    try:
        return await review_of(request, player.id, game_id, game)
    except (UnknownGame, NoReview):
        return await render_error_page(request, 404, lang, Texts(lang)("There is no such page."))
    except RankedDealOpen:
        return await render_error_page(request, 409, lang, protocol_reason("ranked_open", lang))
    except GameOpen:
        message = Texts(lang)("This game is still being played: its review comes when it is over.")
        return await render_error_page(request, 409, lang, message)
    except ReviewsBusy:
        return await render_error_page(request, 503, lang, protocol_reason("reviews_busy", lang))


@router.get("/api/games/{game_id}/review")
async def game_review(request: Request, game_id: str) -> Response:
    """The review of a finished game the player played: 200 ``{"game", "review"}`` (the game's own
    JSON, described with each game); 409 ``game_open`` while it is being played, ``ranked_open`` (with
    ``message``) while its deal is still ranked (decision 0060); 404
    ``no_such_game`` for an unknown game or one the player did not play, ``no_review`` for a game that
    has no reviews; 503 ``reviews_busy`` (with ``retry_after``) when too many are being computed."""
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_such_game", 404)
    try:
        record, review = await review_of(request, player.id, game_id)
    except UnknownGame:
        return await refused(request, "no_such_game", 404)
    except RankedDealOpen:
        return await refused(request, "ranked_open", 409)
    except GameOpen:
        return await refused(request, "game_open", 409)
    except NoReview:
        return await refused(request, "no_review", 404)
    except ReviewsBusy:
        response = await refused(request, "reviews_busy", 503, retry_after=RETRY_AFTER)
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response
    return JSONResponse({"game": record.game, "review": review})
