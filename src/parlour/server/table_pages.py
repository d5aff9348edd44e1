"""Friends' tables over HTTP: the tables page (create, join by code, the public lobby), a table's own
page ``/thirteen/t/{code}``, and ``POST /api/tables`` / ``GET /api/tables``.

Creating a table only writes its row (the host seated at seat 0 with a fresh seat token): the table
comes alive in whichever process a page's socket reaches first (``parlour.server.table_socket``).
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.thirteen import NAME, STRENGTH_NAMES, strength_name
from parlour.games.thirteen_tables import (
    EMOJI,
    GRACE_CHOICES,
    PHRASES,
    TURN_CHOICES,
    Seat,
    TableRecord,
    TableSettings,
    clean_name,
)
from parlour.server.context import (
    current_player,
    json_body,
    known_player,
    parlour_of,
    render,
    request_language,
)
from parlour.server.i18n import supported
from parlour.server.thirteen_page import page_context, preferred, thirteen_texts
from parlour.store.secrets import digest
from parlour.store.tables import UnknownTable, normalize_table_code

router = APIRouter()

TABLE_TEXTS: Final = (
    "Free seat", "Sit here", "Your name", "Add a computer player", "Remove", "Swap with the next seat",
    "Start the game", "Rematch", "Waiting for the host to start.", "Copy the link", "Link copied.",
    "Table code", "Away", "Connected", "A computer player is playing for {name}.", "Computer ({strength})",
    "Host", "You", "Chat", "{seconds} s left", "Ready", "Waiting for the others…", "Leave this seat",
    "The host can start once every seat is taken.", "Take a free seat to play.",
    "This seat token is no seat's at this table.", "Computer", "Computer {n}",
    "Every seat is taken: start the game when you are ready.",
)  # fmt: skip
"""Texts the page shows at a friends' table (``thirteen_web`` msgids), sent translated."""


def _refusal(request: Request, error: ParlourError, lang: str) -> JSONResponse:
    """Return 400 with the reason code, its text in ``lang`` (Thirteen's own explanation) and the detail."""
    text = parlour_of(request).games.get(NAME).explain(error.code, lang) or str(error)
    return JSONResponse({"code": error.code, "message": text, "detail": str(error)[:300]}, status_code=400)


def table_summary(record: TableRecord) -> dict[str, Any]:
    """Return what the lobby shows of a public table: its code, host's name, seats taken and rules."""
    seats = [Seat.from_record(data) for data in record.seats]
    settings = TableSettings.from_json(record.settings)
    host = next((seat.name for seat in seats if seat.player_id == record.host), "")
    return {
        "code": record.code,
        "url": f"/thirteen/t/{record.code}",
        "host": host,
        "free": sum(1 for seat in seats if seat.kind == "empty"),
        "people": sum(1 for seat in seats if seat.kind == "person"),
        "target_points": settings.rules.target_points,
        "turn_seconds": settings.turn_seconds,
    }


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    """Create a friends' table: body ``{"name": …, "settings": {…}}`` (both optional).

    Returns ``{"table", "code", "url", "seat", "seat_token"}``: the host sits at seat 0, and the seat
    token (shown only here) lets the host's pages act for that seat. 400 with ``code`` and ``message``
    for bad settings.
    """
    parlour = parlour_of(request)
    player = await current_player(request)
    lang = supported(request.query_params.get("lang")) or await request_language(request)
    body: Any = await json_body(request)
    try:
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise ParlourError("a new table's body is a JSON object", code="bad_option")
        unknown = sorted(set(body) - {"name", "settings"})
        if unknown:
            raise ParlourError(f"unknown field(s): {', '.join(unknown)}", code="bad_option")
        settings = TableSettings.from_json(body.get("settings"))
        name = clean_name(body.get("name") or player.name, 0)
    except ParlourError as error:
        return _refusal(request, error, lang)
    await parlour.limits.hit("new_table", str(player.id))
    seat_token = secrets.token_urlsafe(24)
    host = Seat("person", name, player.id, digest(seat_token))
    seats = [host.to_record(), *(Seat().to_record() for _ in range(3))]
    record = await parlour.write(parlour.store.create_table, player.id, settings.to_json(), seats)
    response = JSONResponse(
        {
            "table": record.table_id,
            "code": record.code,
            "url": f"/thirteen/t/{record.code}",
            "seat": 0,
            "seat_token": seat_token,
        },
        status_code=201,
    )
    return response


@router.get("/api/tables")
async def public_tables(request: Request) -> Response:
    """The public lobby: ``{"tables": [{"code", "url", "host", "free", "people", …}]}``."""
    parlour = parlour_of(request)
    records = await parlour.call(parlour.store.public_tables)
    return JSONResponse({"tables": [table_summary(record) for record in records]})


@router.get("/thirteen/tables", include_in_schema=False)
async def tables_page(request: Request) -> Response:
    """Play with friends: create a table, join one by its code, or pick a public one."""
    parlour = parlour_of(request)
    lang = await request_language(request)
    t = thirteen_texts(lang)
    records = await parlour.call(parlour.store.public_tables)
    context = {
        "t": t,
        "lobby": [table_summary(record) for record in records],
        "strengths": [(value, strength_name(value, lang)) for value in STRENGTH_NAMES],
        "turn_choices": TURN_CHOICES,
        "grace_choices": GRACE_CHOICES,
        "defaults": TableSettings(),
        "code_error": request.query_params.get("error") == "no_such_table",
    }
    return await render(request, "thirteen_tables.html", context)


@router.get("/thirteen/join", include_in_schema=False)
async def join_by_code(request: Request, code: str = "") -> Response:
    """The join form: go to the table of a typed code (case, spaces and dashes forgiven)."""
    canonical = normalize_table_code(code)
    target = f"/thirteen/t/{canonical}" if canonical else "/thirteen/tables?error=no_such_table"
    return RedirectResponse(target, status_code=303)


@router.get("/thirteen/t/{code}", include_in_schema=False)
async def table_page(request: Request, code: str) -> Response:
    """A friends' table: seats, the match, chat. A code of no table gets a page saying so (404).

    A visitor who is not a player yet gets the page too; its script makes the player
    (``POST /api/player``) before it connects, since a seat and the chat need one.
    """
    parlour = parlour_of(request)
    player = await known_player(request)
    await parlour.limits.hit("find_table", request.client.host if request.client else "unknown")
    lang = await request_language(request)
    try:
        record = await parlour.call(parlour.store.table_by_code, code)
    except UnknownTable:
        response = await render(
            request, "thirteen_no_table.html", {"t": thirteen_texts(lang), "code": code[:20]}
        )
        response.status_code = 404
        return response
    prefs = await parlour.call(parlour.store.preferences, player.id if player else None)
    speed, strength = preferred(prefs)
    context = page_context(lang, prefs, speed, strength)
    t = context["t"]
    boot = context["boot"]
    boot["table"] = {"id": record.table_id, "code": record.code, "url": f"/thirteen/t/{record.code}"}
    boot["texts"].update({message: t(message) for message in TABLE_TEXTS})
    # Pairs, not an object: the page's JSON is written with sorted keys, and the phrases go in the order
    # of a game (Hello! first, Bye! last), not in the alphabet's.
    boot["phrases"] = [[key, t(text)] for key, text in PHRASES.items()]
    boot["emoji"] = list(EMOJI)
    boot["strengthNames"] = {value: strength_name(value, lang) for value in STRENGTH_NAMES}
    context["table"] = boot["table"]
    boot["player"] = player is not None
    return await render(request, "thirteen.html", context)
