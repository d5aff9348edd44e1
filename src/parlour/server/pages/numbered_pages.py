"""The numbered games of every game that has them: ``/{game}/numbered`` (the picker, 50 deals a page,
each with its record and the player's own best), starting one, and the JSON of one deal's record.

Numbered deals are the same for everybody; their records live in the store and what a result is comes
from the game's definition (:class:`~parlour.games.base.NumberedGames`). Page text is in the ``store``
gettext domain.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Final
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition, NumberedGames
from parlour.server.pages.players import _int, _page
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    BadBody,
    checked_form,
    current_player,
    game_having,
    known_player,
    parlour_of,
    read_form,
    refused,
    request_language,
)
from parlour.store.messages import record_messages
from parlour.store.rows import utcnow

router = APIRouter()

PAGE_SIZE: Final = 50


def numbered_of(request: Request, game: str) -> tuple[GameDefinition, NumberedGames]:
    """Return the game named in a numbered page's address and its numbered deals.

    Raises:
        HTTPException: 404, no registered game of that name has numbered deals.
    """
    definition = game_having(request, game, lambda found: found.numbered is not None)
    assert definition.numbered is not None
    return definition, definition.numbered


def picker_url(name: str, rules: str, **query: int) -> str:
    """Return the address of game ``name``'s numbered games page: ``/{name}/numbered?rules=…`` (and
    ``page``, or ``game``: the deal to show)."""
    return f"/{name}/numbered?" + urlencode({"rules": rules, **query})


@router.get("/{game}/numbered", include_in_schema=False)
async def numbered_page(request: Request, game: str) -> Response:
    """The numbered games' picker: 50 deals a page, each with its record and the player's own best."""
    definition, numbered = numbered_of(request, game)
    player = await known_player(request)
    me = player.id if player else None
    parlour = parlour_of(request)
    rules = request.query_params.get("rules", "")
    rules = rules if rules in numbered.rules else numbered.rules_keys[0]
    pages = -(-numbered.count // PAGE_SIZE)
    page = _int(request.query_params.get("page"), 1, 1, pages)
    wanted = request.query_params.get("game")
    highlight = None
    if wanted is not None:
        highlight = _int(wanted, 1, 1, numbered.count)
        page = (highlight - 1) // PAGE_SIZE + 1
    offset = (page - 1) * PAGE_SIZE
    entries = await parlour.call(parlour.store.numbered_page, game, rules, me, offset, PAGE_SIZE)
    latest = await parlour.call(parlour.store.latest_numbered_outcome, me, game)
    lang = await request_language(request)
    return await _page(
        request,
        "numbered.html",
        {
            "definition": definition,
            "numbered": numbered,
            "rules": rules,
            "entries": entries,
            "page_number": page,
            "pages": pages,
            "highlight": highlight,
            "me": me,
            "can_play": definition.page is not None,
            "latest": latest,
            "latest_news": record_messages(latest, lang) if latest is not None else [],
            "picker_url": picker_url,
        },
    )


@router.get("/{game}/numbered/leaders", include_in_schema=False)
async def numbered_leaders_page(request: Request, game: str) -> Response:
    """The numbered games' leaderboards under a rule set: the players with the most first wins and
    the most records held, this week (from Monday, UTC) and of all time, each with a link to the latest
    deal they count for."""
    definition, numbered = numbered_of(request, game)
    rules = request.query_params.get("rules", "")
    rules = rules if rules in numbered.rules else numbered.rules_keys[0]
    parlour = parlour_of(request)
    now = utcnow()
    monday = datetime.combine(now.date() - timedelta(days=now.weekday()), time(), tzinfo=UTC)
    week = await parlour.call(parlour.store.numbered_leaders, game, rules, since=monday)
    ever = await parlour.call(parlour.store.numbered_leaders, game, rules)
    player = await known_player(request)
    return await _page(
        request,
        "numbered_leaders.html",
        {
            "definition": definition,
            "numbered": numbered,
            "rules": rules,
            "boards": [("This week", week), ("All time", ever)],
            "me": player.id if player else None,
            "picker_url": picker_url,
        },
    )


class NumberedDeal(BaseModel):
    """The form that starts a numbered deal: its rule set and its number."""

    rules: str = ""
    number: int = 0


@router.post("/{game}/numbered/play", include_in_schema=False)
async def play_numbered(request: Request, game: str) -> Response:
    """Start numbered deal ``number`` under ``rules`` (form fields) and go to the game's page; a deal
    that cannot be started goes back to the picker, at that deal."""
    definition, numbered = numbered_of(request, game)
    fields = await checked_form(request)
    parlour = parlour_of(request)
    try:
        form = read_form(fields, NumberedDeal)
    except BadBody:
        form = NumberedDeal(rules="", number=0)
    rules, number = form.rules, form.number
    if rules not in numbered.rules or not 1 <= number <= numbered.count or definition.page is None:
        key = rules if rules in numbered.rules else numbered.rules_keys[0]
        return RedirectResponse(picker_url(game, key), 303)
    player = await current_player(request)
    try:
        await parlour.start(definition, player.id, {"rules": rules, "number": number})
    except EDGE_ERRORS:
        raise
    except ParlourError:
        return RedirectResponse(picker_url(game, rules, game=number), 303)
    return RedirectResponse(definition.page, status_code=303)


@router.get("/api/numbered/{game}/{rules}/{number}")
async def numbered_record_json(request: Request, game: str, rules: str, number: int) -> Response:
    """The record of one numbered deal and the player's own best, as JSON (404 ``no_such_numbered_game``
    for a game without numbered deals, rules without them or a number outside their range)."""
    definition = parlour_of(request).games.find(game)
    numbered = definition.numbered if definition is not None else None
    if numbered is None or rules not in numbered.rules or not 1 <= number <= numbered.count:
        return await refused(request, "no_such_numbered_game", 404)
    player = await known_player(request)
    me = player.id if player else None
    parlour = parlour_of(request)
    [entry] = await parlour.call(parlour.store.numbered_page, game, rules, me, number - 1, 1)
    record = entry.record
    body = {
        "game": game,
        "rules": rules,
        "number": number,
        "record": None if record is None else {**record.to_json(), "mine": record.holder.player_id == me},
        "mine": entry.mine.to_json() if entry.mine is not None else None,
        "winnable": entry.winnable,
    }
    return JSONResponse(body)


@router.get("/api/numbered/{rules}/{number}", include_in_schema=False)
async def numbered_record_before_games(request: Request, rules: str, number: int) -> Response:
    """The address of a deal's record from before several games had numbered deals: it names the rules
    only, so it leads to the first game whose numbered deals have those rules (404 when none has)."""
    for definition in parlour_of(request).games.numbered():
        if definition.numbered is not None and rules in definition.numbered.rules:
            url = f"/api/numbered/{definition.name}/{rules}/{number}"
            return RedirectResponse(url, status_code=308)
    return await refused(request, "no_such_numbered_game", 404)
