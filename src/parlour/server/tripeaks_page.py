"""The TriPeaks page: ``GET /tripeaks`` shows the player's open game (dealing one when there is none).

``/tripeaks?code=TP1-E-AAAAAAB`` deals that code and ``/tripeaks?number=123&rules=classic`` that numbered
game, then redirect to ``/tripeaks`` so that a reload does not deal again. The page's scripts get their
texts from the catalog embedded in the page (``web`` and ``tripeaks`` domains); card names come with each
view, so the page holds no list of cards.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.games.tripeaks import NAME, NUMBERED_GAMES
from parlour.i18n.tripeaks import page_text
from parlour.server import numbered_pages
from parlour.server.context import current_player, parlour_of, render, request_language, set_player_cookie
from parlour.tripeaks.layout import SLOT_PLACES
from parlour.tripeaks.rules import VARIANTS
from parlour.tripeaks.solver import compiled_available

router = APIRouter()
router.include_router(numbered_pages.router)

SCRIPT_TEXTS: Final = (
    "Score",
    "Moves",
    "Draw pile",
    "Discard pile",
    "hidden card",
    "empty",
    "You won!",
    "No more moves possible",
    "Final score: {score}",
    "Game #{number}",
    "Deal code copied",
    "Connection lost: reconnecting…",
    "This game is not yours.",
    "{card} removed.",
    "{card} turned face up.",
    "{card} drawn.",
    "Move taken back.",
    "Peak cleared! +{bonus}",
    "Start a new game?",
    "Winnable in {moves} moves",
    "This game cannot be won",
    "Thinking…",
    "Hint: play the {card}.",
    "Hint: draw a card.",
)
"""Texts the page's script shows (all in the ``web`` catalog)."""


def script_catalog(lang: str) -> dict[str, Any]:
    """Return the texts the TriPeaks script needs, translated into ``lang`` (card names come with views)."""
    return {"texts": {message: page_text(lang, message) for message in SCRIPT_TEXTS}}


def _definition(request: Request) -> GameDefinition:
    return parlour_of(request).games.get(NAME)


async def _start_from_query(request: Request) -> Response | None:
    """Deal the code or numbered game named in the query, if any; return the redirect (or None)."""
    query = request.query_params
    options: dict[str, Any]
    if "code" in query:
        options = {"code": query["code"]}
    elif "number" in query:
        number = query["number"]
        options = {"number": int(number) if number.isdigit() else number, "rules": query.get("rules", "easy")}
    else:
        return None
    parlour = parlour_of(request)
    player = await current_player(request)
    await parlour.start(_definition(request), player.id, options)
    response = RedirectResponse("/tripeaks", status_code=303)
    set_player_cookie(request, response)
    return response


@router.get("/tripeaks", include_in_schema=False)
async def tripeaks_page(request: Request) -> Response:
    """The TriPeaks table with the player's open game."""
    parlour = parlour_of(request)
    kind = _definition(request)
    player = await current_player(request)
    notice = None
    try:
        redirect = await _start_from_query(request)
    except ParlourError as error:
        notice = kind.explain(error.code, await request_language(request)) or str(error)
    else:
        if redirect is not None:
            return redirect
    owner = await parlour.current(kind, player.id)
    if owner is None:
        owner, _ = await parlour.start(kind, player.id, {})
    lang = await request_language(request)
    preferences = await parlour.call(parlour.store.preferences, player.id)
    settings = {"error_help": preferences.get("error_help", True) is not False}
    return await render(
        request,
        "tripeaks.html",
        {
            "game_id": owner.game_id,
            "script_data": {
                "game": owner.game_id,
                "lang": lang,
                "settings": settings,
                # The layout's geometry, from the engine's one description of it.
                "slots": [list(place) for place in SLOT_PLACES],
                **script_catalog(lang),
            },
            "settings": settings,
            "variants": VARIANTS,
            "numbered_games": NUMBERED_GAMES,
            "notice": notice,
            "hints": compiled_available(),
            "tt": lambda message: page_text(lang, message),
        },
    )
