"""The numbered-games picker of TriPeaks: ``/tripeaks/numbered`` and the JSON of one game's record.

Numbered games are TriPeaks deals #1 … #50,000 under Easy and Classic, the same for everybody; their
records live in the store. Page text is in the ``store`` gettext domain.
"""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.tripeaks import NAME, NUMBERED_GAMES, NUMBERED_RULES
from parlour.server.context import (
    EDGE_ERRORS,
    checked_form,
    current_player,
    known_player,
    parlour_of,
    request_language,
)
from parlour.server.players import _int, _page
from parlour.store.messages import record_messages

router = APIRouter()

PAGE_SIZE: Final = 50
PAGES: Final = -(-NUMBERED_GAMES // PAGE_SIZE)


@router.get("/tripeaks/numbered", include_in_schema=False)
async def numbered_page(request: Request) -> Response:
    """The numbered-games picker: 50 games a page, each with its record and the player's own best."""
    player = await known_player(request)
    me = player.id if player else None
    parlour = parlour_of(request)
    rules = request.query_params.get("rules", "easy")
    rules = rules if rules in NUMBERED_RULES else "easy"
    page = _int(request.query_params.get("page"), 1, 1, PAGES)
    wanted = request.query_params.get("game")
    if wanted is not None:
        number = _int(wanted, 1, 1, NUMBERED_GAMES)
        page = (number - 1) // PAGE_SIZE + 1
    entries = await parlour.call(parlour.store.numbered_page, rules, me, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    latest = await parlour.call(parlour.store.latest_numbered_outcome, me)
    lang = await request_language(request)
    return await _page(
        request,
        "numbered.html",
        {
            "rules": rules,
            "entries": entries,
            "page_number": page,
            "pages": PAGES,
            "numbered_games": NUMBERED_GAMES,
            "highlight": _int(wanted, 0, 0, NUMBERED_GAMES) if wanted is not None else None,
            "me": me,
            "can_play": NAME in parlour.games,
            "latest": latest,
            "latest_news": record_messages(latest, lang) if latest is not None else [],
        },
    )


@router.post("/tripeaks/numbered/play", include_in_schema=False)
async def play_numbered(request: Request) -> Response:
    """Start numbered game ``number`` under ``rules`` (form fields) and go to the TriPeaks page."""
    form = await checked_form(request)
    parlour = parlour_of(request)
    kind = parlour.games.find(NAME)
    rules = str(form.get("rules", "easy"))
    number = _int(str(form.get("number", "")), 0, 0, NUMBERED_GAMES + 1)
    if kind is None or rules not in NUMBERED_RULES or not 1 <= number <= NUMBERED_GAMES:
        return RedirectResponse(
            f"/tripeaks/numbered?rules={rules if rules in NUMBERED_RULES else 'easy'}", 303
        )
    player = await current_player(request)
    try:
        await parlour.start(kind, player.id, {"rules": rules, "number": number})
    except EDGE_ERRORS:
        raise
    except ParlourError:
        return RedirectResponse(f"/tripeaks/numbered?rules={rules}&game={number}", 303)
    response = RedirectResponse(kind.page or "/", status_code=303)
    return response


@router.get("/api/numbered/{rules}/{number}")
async def numbered_record_json(request: Request, rules: str, number: int) -> Response:
    """The record of one numbered game and the player's own best, as JSON (404 outside the range)."""
    if rules not in NUMBERED_RULES or not 1 <= number <= NUMBERED_GAMES:
        return JSONResponse({"code": "no_such_numbered_game"}, status_code=404)
    player = await known_player(request)
    me = player.id if player else None
    parlour = parlour_of(request)
    [entry] = await parlour.call(parlour.store.numbered_page, rules, me, number - 1, 1)
    record = entry.record
    body = {
        "rules": rules,
        "number": number,
        "record": None
        if record is None
        else {
            "best_left": record.best_left,
            "best_moves": record.best_moves,
            "holder": record.holder.name,
            "mine": me is not None and record.holder.player_id == me,
            "set_at": record.set_at.isoformat(),
            "first_winner": record.first_winner.name if record.first_winner else None,
            "plays": record.plays,
        },
        "mine": None
        if entry.mine is None
        else {"best_left": entry.mine.best_left, "best_moves": entry.mine.best_moves},
        "winnable": entry.winnable,
    }
    return JSONResponse(body)
