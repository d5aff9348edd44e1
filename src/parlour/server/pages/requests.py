"""What every router uses of a request: the server's state, the player of the token cookie (made only
when an action needs one), the language, posted forms checked against cross-site requests, JSON bodies,
and pages rendered with what every template gets.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any, Final, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.responses import Response

from parlour import __version__
from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.i18n import decimal, labelled, percent
from parlour.server.context import Parlour
from parlour.server.edge.browser_names import browser_name
from parlour.server.edge.limits import RateLimited
from parlour.server.edge.player_cookie import NEW_TOKEN, TOKEN_COOKIE
from parlour.server.edge.security import CrossSite, check_csrf, csrf_token, set_csrf_cookie
from parlour.server.i18n import Texts, choose_language, language_choices, protocol_reason, supported
from parlour.store.errors import StoreUnavailable
from parlour.store.types import Player

EDGE_ERRORS: Final = (RateLimited, StoreUnavailable, CrossSite)
"""Refusals a page handler passes on for the app to answer (429, 503, 403) instead of showing them."""
INVALID_REQUEST: Final = "This request is not understood: a part of its address or body is not valid."
"""What a request of the wrong shape is told (a ``web`` msgid), the detail naming the parts."""

Body = TypeVar("Body", bound=BaseModel)


class BadBody(ParlourError):
    """A request body that is not JSON (``bad_json``), or not of the shape its address takes
    (``invalid_input``: the detail names the fields and what they should be, never what was sent)."""

    code = "invalid_input"


def _place(loc: tuple[int | str, ...]) -> str:
    """A field's place in a body, as said back: names that are no short identifiers (a sender's own
    field names can be anything) are not repeated."""
    parts = [
        str(part) if isinstance(part, int) or (part.isidentifier() and len(part) <= 30) else "…"
        for part in loc
    ]
    return ".".join(parts) or "body"


def field_problems(error: ValidationError) -> str:
    """Return what was wrong with a body, field by field (at most five), without what was sent."""
    problems = error.errors(include_url=False, include_input=False)
    return "; ".join(f"{_place(problem['loc'])}: {problem['msg']}" for problem in problems[:5])[:300]


async def read_body(request: Request, model: type[Body], *, empty: Any = None) -> Body:
    """Return a request's JSON body read into ``model``; an empty body is read as ``empty`` when that is
    given (a body that may be left out).

    Raises:
        BadBody: not JSON (``bad_json``), or not what ``model`` takes (``invalid_input``).
    """
    if empty is not None and not (await request.body()).strip():
        data = empty
    else:
        try:
            data = await request.json()
        except (ValueError, RecursionError) as error:  # not JSON, or nested deeper than the parser goes
            raise BadBody("the body is not JSON", code="bad_json") from error
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise BadBody(field_problems(error)) from None


def read_form(form: FormData, model: type[Body]) -> Body:
    """Return a posted form's fields (text) read into ``model`` (fields it does not name, such as the
    CSRF token, are left out by the model).

    Raises:
        BadBody: a field missing or of the wrong shape (``invalid_input``).
    """
    fields = {name: value for name, value in form.multi_items() if isinstance(value, str)}
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        raise BadBody(field_problems(error)) from None


def body_refusal(error: ParlourError, lang: str, *, code: str | None = None) -> JSONResponse:
    """Return the 400 answer to a body refused: Parlour's ``{code, message, detail}``, the message in
    ``lang`` (``code`` replaces the error's own, for an address that has always answered with its own)."""
    reason = protocol_reason("bad_json", lang) if error.code == "bad_json" else Texts(lang)(INVALID_REQUEST)
    body = {"code": code or error.code, "message": reason, "detail": str(error)[:300]}
    return JSONResponse(body, status_code=400)


async def checked_form(request: Request) -> FormData:
    """Return a posted form after checking its CSRF token (see ``parlour.server.edge.security``).

    Raises:
        CrossSite: the form's token is missing or wrong (the app answers 403 ``cross_site``).
    """
    form = await request.form()
    check_csrf(request, form)
    return form


async def refused(request: Request, code: str, status: int, **extra: Any) -> JSONResponse:
    """Return an API refusal: ``{"code", "message", …extra}``, its message the reason's text in the
    request's language (``?lang=`` first), as every error of the API has."""
    lang = supported(request.query_params.get("lang")) or await request_language(request)
    message = protocol_reason(code, lang)
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status)


def client_address(request: Request) -> str:
    """Return the visitor's address as the server sees it (behind a trusted load balancer, the one it
    forwarded): what rate limits and the daily deal's cap on new players count."""
    return request.client.host if request.client else "unknown"


def parlour_of(request: Request) -> Parlour:
    """Return the server state of the app serving ``request``."""
    state: Parlour = request.app.state.parlour
    return state


def game_having(request: Request, game: str, has: Callable[[GameDefinition], bool]) -> GameDefinition:
    """Return the registered game named in a page's address, if it ``has`` what the page shows (its
    numbered deals, its daily deal, its challenges).

    Raises:
        HTTPException: 404, no registered game of that name, or one without it.
    """
    definition = parlour_of(request).games.find(game)
    if definition is None or not has(definition):
        raise HTTPException(404)
    return definition


async def known_player(request: Request) -> Player | None:
    """Return the player of the request's token cookie, None for a visitor who has none yet (or whose
    token no longer works). Nothing is created: a page view, a crawler or a health check makes no player
    (decision 0042)."""
    # Looked up once a request, found or not (a page asks for the player and then for its language).
    if hasattr(request.state, "player"):
        cached: Player | None = request.state.player
        return cached
    parlour = parlour_of(request)
    token = request.cookies.get(TOKEN_COOKIE)
    player = await parlour.call(parlour.store.player_by_token, token) if token else None
    request.state.player = player
    return player


async def current_player(request: Request) -> Player:
    """Return the player of the request's token cookie, creating one (and its cookie) for a visitor who
    has none: only an action that needs a player calls this (a new game, a seat, a preference).

    Raises:
        RateLimited: this address made too many players in the last minute.
    """
    player = await known_player(request)
    if player is None:
        parlour = parlour_of(request)
        await parlour.limits.hit("new_player", client_address(request))
        agent = browser_name(request.headers.get("user-agent"))
        created = await parlour.write(lambda: parlour.store.create_player(agent=agent))
        setattr(request.state, NEW_TOKEN, created.token)  # PlayerCookie gives it with the answer
        player = await parlour.call(parlour.store.player_by_token, created.token)
        if player is None:  # the store lost the player it just made: nothing sensible to show
            raise RuntimeError("a new player could not be read back from the store")
    request.state.player = player
    return player


async def request_language(request: Request) -> str:
    """Return the language of a page request: the ``lang`` query (``?lang=vi``: that page in that
    language, a link to share), then the cookie, the saved preference, then ``Accept-Language``."""
    asked = supported(request.query_params.get("lang"))
    if asked:
        return asked
    preference = None
    player = await known_player(request)
    if player is not None:
        preference = player.preferences.get("lang")
    return choose_language(request.cookies, request.headers.get("accept-language"), preference)


async def render_error_page(request: Request, status: int, lang: str, message: str) -> Response:
    """Render the page a browser gets for an address Parlour has no page at (``status``, ``message``
    in ``lang``), for the player of the request's cookie if it has one: no player is made for it."""
    parlour = parlour_of(request)
    player = None
    with contextlib.suppress(ParlourError):
        player = await known_player(request)
    context = {**_page_context(request, lang, player), "message": message}
    response = parlour.templates.TemplateResponse(request, "error.html", context, status_code=status)
    response.headers["Content-Language"] = lang
    return response


def _page_context(request: Request, lang: str, player: Player | None) -> dict[str, Any]:
    """What every page template gets (see :func:`render`)."""
    texts = Texts(lang)
    return {
        "lang": lang,
        "_": texts,
        "texts": texts,
        "languages": language_choices(),
        "player": player,
        "version": __version__,
        "path": request.url.path,
        "games": list(parlour_of(request).games),
        # Punctuation and numbers as the language writes them: "Défi\u00a0:", "1\u202f000", "12,5"
        "labelled": functools.partial(labelled, lang=lang),
        "number": functools.partial(decimal, lang=lang, digits=0),
        "percent": functools.partial(percent, lang=lang),
        "quick_play": functools.partial(quick_play_choices, lang=lang),
    }


def quick_play_choices(definition: GameDefinition, *, lang: str) -> dict[str, Any]:
    """Return what Play now offers for a game played at tables: its computer players' strengths
    (value, name in ``lang``) with the default, the points targets, and whether it has rated tables."""
    seated = definition.seated
    if seated is None:
        return {"strengths": [], "default_strength": "", "targets": [], "rated": False}
    return {
        "strengths": [(value, seated.strength_label(value, lang)) for value in seated.strengths],
        "default_strength": seated.default_strength,
        "targets": list(seated.quick_targets),
        "rated": bool(seated.computer_ratings),
    }


async def render(request: Request, template: str, context: dict[str, Any] | None = None) -> Response:
    """Render a page template for the request's player (None for a visitor who has none yet: a page
    view makes no player), in the request's language.

    Every template gets ``lang``, ``_`` (``web`` translations), ``texts`` (a :class:`Texts`),
    ``languages`` (code, name) for the switcher, ``player``, ``version``, and ``labelled`` (a label
    before its value), ``number`` and ``percent`` (figures as the language writes them).
    """
    player = await known_player(request)
    lang = await request_language(request)
    full = {"csrf": csrf_token(request), **_page_context(request, lang, player), **(context or {})}
    response = parlour_of(request).templates.TemplateResponse(request, template, full)
    response.headers["Content-Language"] = lang
    set_csrf_cookie(request, response)
    return response
