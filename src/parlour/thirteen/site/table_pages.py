"""Thirteen's friends' tables pages: the tables page (create, join by code, the public lobby) and a
table's own page ``/thirteen/t/{code}`` (the API they use is every game's:
``parlour.server.pages.table_pages``).
"""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from parlour.games.tables import (
    EMOJI,
    GRACE_CHOICES,
    TURN_CHOICES,
    TableSettings,
    seated_game,
    table_phrases,
)
from parlour.server.pages.quick_play import play_summary
from parlour.server.pages.requests import (
    client_address,
    known_player,
    parlour_of,
    render,
    request_language,
)
from parlour.server.pages.table_pages import table_summary, table_url
from parlour.store.tables import UnknownTable, normalize_table_code
from parlour.thirteen.definition import MAX_TABLE_DEALS, NAME, STRENGTH_NAMES, strength_name
from parlour.thirteen.site.page import page_context, preferred, thirteen_texts

router = APIRouter()

TABLE_TEXTS: Final = (
    "Free seat", "Sit here", "Your name", "Add a computer player", "Remove", "Swap with the next seat",
    "Start the game", "Rematch", "Waiting for the host to start.", "Copy the link", "Link copied.",
    "Table code", "Away", "Connected", "A computer player is playing for {name}.", "Computer ({strength})",
    "Host", "You", "Chat", "{seconds} s left", "Ready", "Waiting for the others…", "Leave this seat",
    "The host can start once every seat is taken.", "Take a free seat to play.",
    "This seat token is no seat's at this table.", "Computer", "Computer {n}",
    "Every seat is taken: start the game when you are ready.",
    "You take seat {seat} at the next round.", "Take a computer's seat at the next round", "Leave the table",
    "Your rating: {rating}", "Public table: the site deals, and computer players hold the free seats.",
    "Rated table: every round counts for your rating.", "Seat {n}", "Mute", "Unmute", "Report name",
    "Name reported: it is hidden for you.",
    "This table is rated: agree that your rounds count for your rating to sit here.",
)  # fmt: skip
"""Texts the page shows at a friends' table (``thirteen_web`` msgids), sent translated."""


@router.get("/thirteen/tables", include_in_schema=False)
async def tables_page(request: Request) -> Response:
    """Play with friends: create a table, join one by its code, or pick a public one."""
    parlour = parlour_of(request)
    lang = await request_language(request)
    t = thirteen_texts(lang)
    definition = parlour.games.get(NAME)
    records = await parlour.call(parlour.store.public_tables, NAME)
    playing = await parlour.call(parlour.store.tables_in_play, NAME)
    context = {
        "t": t,
        "lobby": [table_summary(definition, record) for record in records],
        "playing": [play_summary(definition, record) for record in playing],
        "game": definition,
        "strengths": [(value, strength_name(value, lang)) for value in STRENGTH_NAMES],
        "turn_choices": TURN_CHOICES,
        "duplicate_choices": range(1, MAX_TABLE_DEALS + 1),
        "grace_choices": GRACE_CHOICES,
        "defaults": TableSettings.of(seated_game(definition)),
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
    await parlour.limits.hit("find_table", client_address(request))
    lang = await request_language(request)
    try:
        record = await parlour.call(parlour.store.table_by_code, code)
        if record.game != NAME:  # another game's table: its own page
            other = parlour.games.find(record.game)
            if other is not None:
                return RedirectResponse(table_url(other, record.code), status_code=303)
            raise UnknownTable(f"the table {record.code} is of a game not played here")
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
    seated = seated_game(parlour.games.get(NAME))
    settings = TableSettings.from_record(seated, record.settings)
    claim = await parlour.call(parlour.store.claim_of, player.id) if player is not None else None
    waiting = claim is not None and claim.table_id == record.table_id and not claim.seated
    boot["table"] = {
        "id": record.table_id,
        "code": record.code,
        "url": f"/{NAME}/t/{record.code}",
        "quick": settings.quick,
        "rated": settings.rated,
        "claim": claim.seat if waiting and claim is not None else None,
    }
    boot["texts"].update({message: t(message) for message in TABLE_TEXTS})
    # Pairs, not an object: the page's JSON is written with sorted keys, and the phrases go in the order
    # of a game (Hello! first, Bye! last), not in the alphabet's.
    boot["phrases"] = [[key, t(text)] for key, text in table_phrases(seated).items()]
    boot["emoji"] = list(EMOJI)
    boot["strengthNames"] = {value: strength_name(value, lang) for value in STRENGTH_NAMES}
    context["table"] = boot["table"]
    boot["player"] = player is not None
    return await render(request, "thirteen.html", context)
