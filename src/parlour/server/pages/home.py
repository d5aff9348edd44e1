"""Pages and HTTP endpoints every game shares: home page, language switcher, game creation."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, RootModel, StrictBool, create_model
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.registry import Registry
from parlour.server.edge.player_cookie import COOKIE_AGE, NEW_TOKEN
from parlour.server.i18n import LANG_COOKIE, supported
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    BadBody,
    body_refusal,
    current_player,
    parlour_of,
    read_body,
    refused,
    render,
    request_language,
)
from parlour.store.messages import record_messages
from parlour.store.preferences import CHOICES, SWITCHES, game_preferences
from parlour.store.types import Outcome

router = APIRouter()


def record_news(outcome: Outcome, lang: str) -> list[str]:
    """Return the record news of a finished or left numbered game, in ``lang``."""
    return record_messages(outcome, lang)


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
    """Switch this browser's page language (a cookie) and go back.

    A link may do this, so it changes nothing else: the language saved with the player's preferences
    is set on the player page (a form with a CSRF token).
    """
    chosen = supported(lang)
    if chosen is None:
        return await refused(request, "unsupported_language", 404, lang=lang)
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(LANG_COOKIE, chosen, max_age=COOKIE_AGE, samesite="lax", path="/")
    return response


@router.post("/api/player")
async def make_player(request: Request) -> Response:
    """Make this browser a player if it is not one yet (the token cookie comes with the answer).

    Pages call it before what needs a player but deals nothing (a friends' table's socket). Returns
    ``{"name": …, "created": bool}``: 201 when a player was made, 200 when the browser had one; 429
    ``rate_limited`` when this address made too many players in the last minute.
    """
    player = await current_player(request)
    created = getattr(request.state, NEW_TOKEN, None) is not None
    response = JSONResponse({"name": player.name, "created": created}, status_code=201 if created else 200)
    return response


@router.post("/api/games/{kind_name}")
async def create_game(request: Request, kind_name: str) -> Response:
    """Deal a new game of a kind for the requesting player.

    The body is a JSON object of the kind's options (its definition's ``new`` reads them). Returns
    ``{"game": id, "kind": name, "news": [...]}`` (201; ``news`` tells, in the ``lang`` of the query,
    what leaving the previous numbered game did to its records), or 400 with ``code`` and ``message``
    for bad options, 404 for an unknown kind.
    """
    parlour = parlour_of(request)
    kind = parlour.games.find(kind_name)
    if kind is None:
        return await refused(request, "no_such_game_kind", 404, kind=kind_name[:40])
    player = await current_player(request)
    lang = supported(request.query_params.get("lang")) or "en"
    try:
        options = (await read_body(request, GameOptions)).root
    except BadBody as error:
        return body_refusal(error, lang, code="bad_json")
    try:
        owner, outcomes = await parlour.start(kind, player.id, options)
    except EDGE_ERRORS:
        raise
    except ParlourError as error:
        message = kind.explain(error.code, lang) or str(error)
        return JSONResponse({"code": error.code, "message": message, "detail": str(error)}, status_code=400)
    news = [line for outcome in outcomes for line in record_news(outcome, lang)]
    response = JSONResponse({"game": owner.game_id, "kind": kind.name, "news": news}, status_code=201)
    return response


class GameOptions(RootModel[dict[str, Any]]):
    """A new game's options: a JSON object, whose fields the game's definition reads and checks."""


@cache
def preference_changes(games: Registry) -> type[BaseModel]:
    """Return the model of the settings a page may save for its player: ``error_help``, ``sound`` and
    ``screen_reader`` (true or false), the look (``theme``, ``deck``, ``card_size``: one of their
    choices) and each game's own preferences (one of their choices); nothing else."""
    fields: dict[str, Any] = {name: (StrictBool | None, None) for name in SWITCHES}
    for name in ("theme", "deck", "card_size"):
        fields[name] = (Literal[CHOICES[name]] | None, None)
    for name, preference in game_preferences(games).items():
        fields[name] = (Literal[preference.choices] | None, None)
    return create_model("PreferenceChanges", __config__=ConfigDict(extra="forbid"), **fields)


@router.post("/api/preferences")
async def save_preferences(request: Request) -> Response:
    """Save some of the player's settings (``error_help``, ``sound``, ``screen_reader``, the look, a
    game's own such as ``hint_strength``); 400 ``bad_preferences`` for anything else, or for none."""
    lang = supported(request.query_params.get("lang")) or await request_language(request)
    try:
        changes = (await read_body(request, preference_changes(parlour_of(request).games))).model_dump(
            exclude_unset=True
        )
        if not changes:
            raise BadBody("name at least one setting to save")
    except BadBody as error:
        return body_refusal(error, lang, code="bad_preferences")
    player = await current_player(request)
    parlour = parlour_of(request)
    await parlour.write(parlour.store.set_preferences, player.id, **changes)
    response = JSONResponse(await parlour.call(parlour.store.preferences, player.id))
    return response
