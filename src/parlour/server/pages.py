"""Pages and HTTP endpoints every game shares: home page, language switcher, game creation."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.server.context import COOKIE_AGE, current_player, parlour_of, render, set_player_cookie
from parlour.server.i18n import LANG_COOKIE, protocol_reason, supported

router = APIRouter()


@router.get("/", include_in_schema=False)
async def home(request: Request) -> Response:
    """The home page: the games on offer."""
    return await render(request, "home.html")


def safe_next(target: str | None) -> str:
    """Return ``target`` if it is a path on this site, else ``/`` (no open redirects)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@router.get("/language/{lang}", include_in_schema=False)
async def switch_language(request: Request, lang: str, next: str | None = None) -> Response:
    """Switch the page language, remember it (cookie and player preferences) and go back."""
    chosen = supported(lang)
    if chosen is None:
        return JSONResponse({"code": "unsupported_language", "lang": lang}, status_code=404)
    player = await current_player(request)
    parlour = parlour_of(request)
    await parlour.call(parlour.store.set_preferences, player.id, lang=chosen)
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(LANG_COOKIE, chosen, max_age=COOKIE_AGE, samesite="lax", path="/")
    set_player_cookie(request, response)
    return response


@router.post("/api/games/{kind_name}")
async def create_game(request: Request, kind_name: str) -> Response:
    """Deal a new game of a kind for the requesting player.

    The body is a JSON object of the kind's options (TriPeaks: ``rules``, ``variants``, ``number`` or
    ``code``). Returns ``{"game": id, "kind": name}`` (201), or 400 with ``code`` and ``message`` for
    bad options, 404 for an unknown kind.
    """
    parlour = parlour_of(request)
    kind = parlour.kinds.get(kind_name)
    if kind is None:
        return JSONResponse({"code": "no_such_game_kind", "message": kind_name}, status_code=404)
    player = await current_player(request)
    lang = supported(request.query_params.get("lang")) or "en"
    try:
        options: Any = await request.json()
    except ValueError:
        options = None
    if not isinstance(options, dict):
        reason = protocol_reason("bad_json", lang)
        return JSONResponse({"code": "bad_json", "message": reason}, status_code=400)
    try:
        owner = await parlour.start(kind, player.id, options)
    except ParlourError as error:
        message = kind.explain(error.code, lang) or str(error)
        return JSONResponse({"code": error.code, "message": message, "detail": str(error)}, status_code=400)
    response = JSONResponse({"game": owner.game_id, "kind": kind.name}, status_code=201)
    set_player_cookie(request, response)
    return response
