"""The daily deals' pages of every game that has them (decision 0050): ``/{game}/daily`` (today's deal,
its commitment, the player's counted attempt and the leaderboard), ``/{game}/daily/{day}`` (a past
day: its code and salt revealed, playable as practice), ``POST /{game}/daily/play`` and
``GET /api/daily/{game}/{rules}/{day}``. What a deal and a result are comes from the game's definition
(:class:`~parlour.games.base.DailyDeals`); the texts are the ``store`` domain's.

A day's code and salt are published only once the day is over (UTC), or to a player whose counted
attempt has ended: before that, every hidden card would follow from the code.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Final
from urllib.parse import urlencode

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.fairness import SCHEME
from parlour.games.base import DAILY_SECRET, DailyDeals, GameDefinition
from parlour.i18n import normalize_language
from parlour.server.pages.players import StoreTexts, _page
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    BadBody,
    checked_form,
    client_address,
    current_player,
    game_having,
    known_player,
    parlour_of,
    read_form,
    refused,
    request_language,
)
from parlour.store.daily import UNRANKED, DailyDeal, DailyEntry, address_key, today
from parlour.store.rows import as_utc, utcnow

router = APIRouter()

PAST_DAYS: Final = 30
"""How many past days the pages open (the command line reads any day)."""
BOARD_SHOWN: Final = 50
"""How many entries of a leaderboard a page shows."""


def daily_of(request: Request, game: str) -> tuple[GameDefinition, DailyDeals]:
    """Return the game named in a daily page's address and its daily deals.

    Raises:
        HTTPException: 404, no registered game of that name has daily deals.
    """
    definition = game_having(request, game, lambda found: found.daily is not None)
    assert definition.daily is not None
    return definition, definition.daily


def daily_url(game: str, rules: str, day: date | None = None) -> str:
    """Return the address of a day's page (today's without ``day``) under ``rules``."""
    where = f"/{game}/daily" if day is None else f"/{game}/daily/{day.isoformat()}"
    return f"{where}?" + urlencode({"rules": rules})


def _day(text: str) -> date:
    """Return the day of an address: a past day of the last :data:`PAST_DAYS`, or today.

    Raises:
        HTTPException: 404 for anything else (not a date, a day to come, too long ago).
    """
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise HTTPException(404) from None
    now = today()
    if not now - timedelta(days=PAST_DAYS) <= day <= now:
        raise HTTPException(404)
    return day


def entry_json(entry: DailyEntry, daily: DailyDeals, lang: str, me: int | None) -> dict[str, Any]:
    """Return a leaderboard entry as JSON, its result said in ``lang``."""
    return {
        "place": entry.place,
        "name": entry.name,
        "you": entry.player_id == me,
        "result": entry.result,
        "said": daily.describe(entry.result, StoreTexts(lang)),
        "new": entry.new,
    }


def deal_json(deal: DailyDeal, shown: bool) -> dict[str, Any]:
    """Return a day's deal as JSON: its commitment, and its code and salt when they may be shown."""
    body: dict[str, Any] = {"scheme": SCHEME, "commitment": deal.commitment}
    if shown:
        body.update(code=deal.code, salt=deal.salt)
    return body


async def _day_page(request: Request, game: str, day: date) -> Response:
    definition, daily = daily_of(request, game)
    rules = request.query_params.get("rules", "")
    rules = rules if rules in daily.rules else daily.rules_keys[0]
    parlour = parlour_of(request)
    player = await known_player(request)
    me = player.id if player else None
    deal = await parlour.write(parlour.store.daily_deal, game, rules, day)
    board, total, mine = await parlour.call(parlour.store.daily_board, game, rules, day, BOARD_SHOWN, me)
    open_games = await parlour.call(parlour.store.open_games, me, game) if me is not None else []
    in_play = any((record.secret or {}).get(DAILY_SECRET) == day.isoformat() for record in open_games)
    lang = await request_language(request)
    now = today()
    over = deal.revealed(utcnow())
    # A new player from an address that has ranked its new players of the day is told before playing.
    cap, capped = parlour.limits.amount("daily_new_players"), False
    if day == now and mine is None and (player is None or as_utc(player.created_at).date() >= now):
        address = address_key(day, client_address(request))
        capped = await parlour.call(parlour.store.address_full, game, day, address, cap)
    return await _page(
        request,
        "daily.html",
        {
            "definition": definition,
            "daily": daily,
            "rules": rules,
            "day": day,
            "day_text": format_date(day, "full", locale=normalize_language(lang)),
            "is_today": day == now,
            "deal": deal,
            "scheme": SCHEME,
            # Only when the day is over: a player whose attempt counted must not hand the deal to a
            # fresh player of their own (decision 0060).
            "shown": over,
            "mine": mine,
            "in_play": in_play and mine is None,
            "capped": capped,
            "new_players_cap": cap,
            "board": board,
            "total": total,
            "me": me,
            "can_play": definition.page is not None,
            "past": [now - timedelta(days=back) for back in range(1, 8)],
            "daily_url": daily_url,
        },
    )


@router.get("/{game}/daily", include_in_schema=False)
async def daily_page(request: Request, game: str) -> Response:
    """Today's deal: its commitment, the player's counted attempt and place, the leaderboard."""
    return await _day_page(request, game, today())


@router.get("/{game}/daily/{day}", include_in_schema=False)
async def past_daily_page(request: Request, game: str, day: str) -> Response:
    """A past day's deal (of the last 30): its code and salt, its leaderboard, playable as practice;
    today's address goes to ``/{game}/daily``."""
    found = _day(day)
    if found == today():
        daily_of(request, game)
        rules = request.query_params.get("rules", "")
        return RedirectResponse(f"/{game}/daily" + (f"?{urlencode({'rules': rules})}" if rules else ""), 307)
    return await _day_page(request, game, found)


class DailyPlay(BaseModel):
    """The form that starts an attempt: the rule set and the day (today when left out)."""

    rules: str = ""
    day: str = ""


@router.post("/{game}/daily/play", include_in_schema=False)
async def play_daily(request: Request, game: str) -> Response:
    """Start an attempt at a day's deal and go to the game's page. Today's is ranked (its code hidden
    until it is over; the first attempt to end counts); a past day's deal is public, played as practice."""
    definition, daily = daily_of(request, game)
    fields = await checked_form(request)
    try:
        form = read_form(fields, DailyPlay)
    except BadBody:
        form = DailyPlay()
    rules = form.rules if form.rules in daily.rules else daily.rules_keys[0]
    day = today() if not form.day else _day(form.day)
    if definition.page is None:
        raise HTTPException(404)
    parlour = parlour_of(request)
    player = await current_player(request)
    deal = await parlour.write(parlour.store.daily_deal, game, rules, day)
    try:
        if day == today():
            secret: dict[str, Any] = {DAILY_SECRET: day.isoformat()}
            address = address_key(day, client_address(request))
            cap = parlour.limits.amount("daily_new_players")
            if not await parlour.write(parlour.store.admit_daily_player, game, day, address, player.id, cap):
                secret[UNRANKED] = "address"  # played with its code hidden, but not ranked
            await parlour.start(definition, player.id, {}, definition.ranked(deal.code, secret))
        else:
            await parlour.start(definition, player.id, {"code": deal.code})
    except EDGE_ERRORS:
        raise
    except ParlourError:
        return RedirectResponse(daily_url(game, rules, None if day == today() else day), 303)
    return RedirectResponse(definition.page, status_code=303)


@router.get("/api/daily/{game}/{rules}/{day}")
async def daily_json(request: Request, game: str, rules: str, day: str) -> Response:
    """A day's deal as JSON: ``{"game", "rules", "day", "deal": {"scheme", "commitment"[, "code",
    "salt"]}, "leaderboard": [...], "total", "you"}``; the code and salt only once the day is over
    (decision 0060). 404 ``no_such_daily_deal`` for a game or rules without
    daily deals, or a day that is not one of the last 30 or today."""
    definition = parlour_of(request).games.find(game)
    daily = definition.daily if definition is not None else None
    try:
        found = _day(day)
    except HTTPException:
        found = None
    if daily is None or rules not in daily.rules or found is None:
        return await refused(request, "no_such_daily_deal", 404)
    parlour = parlour_of(request)
    player = await known_player(request)
    me = player.id if player else None
    deal = await parlour.write(parlour.store.daily_deal, game, rules, found)
    board, total, mine = await parlour.call(parlour.store.daily_board, game, rules, found, BOARD_SHOWN, me)
    lang = await request_language(request)
    return JSONResponse(
        {
            "game": game,
            "rules": rules,
            "day": found.isoformat(),
            "deal": deal_json(deal, deal.revealed(utcnow())),
            "leaderboard": [entry_json(entry, daily, lang, me) for entry in board],
            "total": total,
            "you": None if mine is None else entry_json(mine, daily, lang, me),
        }
    )
