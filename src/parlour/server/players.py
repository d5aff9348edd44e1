"""The player's own pages: statistics (with a chart), the numbered-games picker, and the player page.

Also the JSON a game page uses when a game ends: ``GET /api/games/{game_id}/outcome`` gives the replayed
result and the record news (first to win, broke the record, holds the best result) in the page's
language. Page text is in the ``store`` gettext domain.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.i18n import LANGUAGE_NAMES, gettext_for
from parlour.server.context import (
    COOKIE_AGE,
    TOKEN_COOKIE,
    current_player,
    parlour_of,
    render,
    request_language,
    set_player_cookie,
)
from parlour.server.i18n import LANG_COOKIE
from parlour.server.players_chart import places_chart, results_chart
from parlour.store import NUMBERED_GAMES, NUMBERED_RULES, UnknownGame
from parlour.store.messages import record_messages
from parlour.store.preferences import BOT_SPEEDS, BOT_STRENGTHS

router = APIRouter()

DOMAIN: Final = "store"
PAGE_SIZE: Final = 50
PAGES: Final = -(-NUMBERED_GAMES // PAGE_SIZE)


class StoreTexts:
    """Translations of the ``store`` domain for one language (``s("…")`` in templates)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, message: str, **values: Any) -> str:
        text = gettext_for(self.lang, DOMAIN, message)
        return text.format(**values) if values else text


async def _page(request: Request, template: str, context: dict[str, Any]) -> Response:
    lang = await request_language(request)
    return await render(request, template, {"s": StoreTexts(lang), **context})


def _int(value: str | None, default: int, low: int, high: int) -> int:
    """Return ``value`` as an int clamped to [low, high], ``default`` when it is not a number."""
    try:
        number = int(value) if value is not None else default
    except ValueError:
        number = default
    return max(low, min(high, number))


@router.get("/stats", include_in_schema=False)
async def statistics_page(request: Request) -> Response:
    """The player's statistics: TriPeaks per rule set, Thirteen, and a chart of recent games."""
    player = await current_player(request)
    parlour = parlour_of(request)
    stats = await parlour.call(parlour.store.statistics, player.id)
    lang = await request_language(request)
    texts = StoreTexts(lang)
    return await _page(
        request,
        "stats.html",
        {
            "stats": stats,
            "rule_rows": [key for key in ("easy", "classic", "custom", "all") if key in stats.tripeaks],
            "chart": results_chart(stats.recent, texts),
            "places_chart": places_chart(stats.thirteen.places, texts),
        },
    )


@router.get("/api/stats")
async def statistics_json(request: Request) -> Response:
    """The player's statistics as JSON."""
    player = await current_player(request)
    parlour = parlour_of(request)
    stats = await parlour.call(parlour.store.statistics, player.id)
    body = {
        "tripeaks": {
            key: {
                "played": row.played,
                "won": row.won,
                "win_rate": row.win_rate,
                "best_score": row.best_score,
                "current_streak": row.current_streak,
                "longest_streak": row.longest_streak,
                "average_moves_of_wins": row.average_moves_of_wins,
            }
            for key, row in stats.tripeaks.items()
        },
        "thirteen": {
            "games": stats.thirteen.games,
            "rounds": stats.thirteen.rounds,
            "places": list(stats.thirteen.places),
            "points": stats.thirteen.points,
            "won": stats.thirteen.won,
        },
    }
    response = JSONResponse(body)
    set_player_cookie(request, response)
    return response


@router.get("/tripeaks/numbered", include_in_schema=False)
async def numbered_page(request: Request) -> Response:
    """The numbered-games picker: 50 games a page, each with its record and the player's own best."""
    player = await current_player(request)
    parlour = parlour_of(request)
    rules = request.query_params.get("rules", "easy")
    rules = rules if rules in NUMBERED_RULES else "easy"
    page = _int(request.query_params.get("page"), 1, 1, PAGES)
    wanted = request.query_params.get("game")
    if wanted is not None:
        number = _int(wanted, 1, 1, NUMBERED_GAMES)
        page = (number - 1) // PAGE_SIZE + 1
    entries = await parlour.call(
        parlour.store.numbered_page, rules, player.id, (page - 1) * PAGE_SIZE, PAGE_SIZE
    )
    latest = await parlour.call(parlour.store.latest_numbered_outcome, player.id)
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
            "me": player.id,
            "can_play": "tripeaks" in parlour.kinds,
            "latest": latest,
            "latest_news": record_messages(latest, lang) if latest is not None else [],
        },
    )


@router.post("/tripeaks/numbered/play", include_in_schema=False)
async def play_numbered(request: Request) -> Response:
    """Start numbered game ``number`` under ``rules`` (form fields) and go to the TriPeaks page."""
    form = await request.form()
    parlour = parlour_of(request)
    kind = parlour.kinds.get("tripeaks")
    rules = str(form.get("rules", "easy"))
    number = _int(str(form.get("number", "")), 0, 0, NUMBERED_GAMES + 1)
    if kind is None or rules not in NUMBERED_RULES or not 1 <= number <= NUMBERED_GAMES:
        return RedirectResponse(
            f"/tripeaks/numbered?rules={rules if rules in NUMBERED_RULES else 'easy'}", 303
        )
    player = await current_player(request)
    try:
        await parlour.start(kind, player.id, {"rules": rules, "number": number})
    except ParlourError:
        return RedirectResponse(f"/tripeaks/numbered?rules={rules}&game={number}", 303)
    response = RedirectResponse(kind.page, status_code=303)
    set_player_cookie(request, response)
    return response


@router.get("/api/numbered/{rules}/{number}")
async def numbered_record_json(request: Request, rules: str, number: int) -> Response:
    """The record of one numbered game and the player's own best, as JSON (404 outside the range)."""
    if rules not in NUMBERED_RULES or not 1 <= number <= NUMBERED_GAMES:
        return JSONResponse({"code": "no_such_numbered_game"}, status_code=404)
    player = await current_player(request)
    parlour = parlour_of(request)
    [entry] = await parlour.call(parlour.store.numbered_page, rules, player.id, number - 1, 1)
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
            "mine": record.holder.player_id == player.id,
            "set_at": record.set_at.isoformat(),
            "first_winner": record.first_winner.name if record.first_winner else None,
            "plays": record.plays,
        },
        "mine": None
        if entry.mine is None
        else {"best_left": entry.mine.best_left, "best_moves": entry.mine.best_moves},
        "winnable": entry.winnable,
    }
    response = JSONResponse(body)
    set_player_cookie(request, response)
    return response


@router.get("/api/games/{game_id}/outcome")
async def game_outcome(request: Request, game_id: str) -> Response:
    """The outcome of one of the player's finished games, with the record news in the page's language.

    200 ``{"outcome": {…}, "messages": [...]}``; 409 ``{"code": "game_open"}`` while the game is being
    played; 404 ``{"code": "no_such_game"}`` for an unknown game or another player's game.
    """
    player = await current_player(request)
    parlour = parlour_of(request)
    try:
        outcome = await parlour.call(parlour.store.game_outcome, game_id, player.id)
    except UnknownGame:
        return JSONResponse({"code": "no_such_game"}, status_code=404)
    if outcome is None:
        return JSONResponse({"code": "game_open"}, status_code=409)
    lang = await request_language(request)
    return JSONResponse({"outcome": outcome.to_json(), "messages": record_messages(outcome, lang)})


@router.post("/api/games/{game_id}/leave")
async def leave_game(request: Request, game_id: str) -> Response:
    """Leave one of the player's games unfinished (or take the outcome of a finished one).

    The result is the server's replay of the moves stored so far; for a numbered game it enters the
    records, and the answer carries the record news like ``GET /api/games/{game_id}/outcome``.
    404 ``{"code": "no_such_game"}`` for an unknown game or another player's game.
    """
    player = await current_player(request)
    parlour = parlour_of(request)
    owner = parlour.live.get(game_id)
    if owner is not None and owner.player_id == player.id:
        await parlour.abandon(owner)
    try:
        outcome = await parlour.call(parlour.store.finish_game, game_id, player.id)
    except UnknownGame:
        return JSONResponse({"code": "no_such_game"}, status_code=404)
    lang = await request_language(request)
    return JSONResponse({"outcome": outcome.to_json(), "messages": record_messages(outcome, lang)})


@router.get("/player", include_in_schema=False)
async def player_page(request: Request) -> Response:
    """The player page: display name, recovery code, redeeming a code, preferences."""
    return await _player_page(request)


async def _player_page(
    request: Request, *, code: str | None = None, problem: str | None = None, status: int = 200
) -> Response:
    player = await current_player(request)
    parlour = parlour_of(request)
    preferences = await parlour.call(parlour.store.preferences, player.id)
    response = await _page(
        request,
        "player.html",
        {
            "preferences": preferences,
            "recovery_code": code,
            "problem": problem,
            "language_names": LANGUAGE_NAMES,
            "bot_speeds": BOT_SPEEDS,
            "bot_strengths": BOT_STRENGTHS,
            "saved": request.query_params.get("saved"),
        },
    )
    response.status_code = status
    return response


@router.post("/player/name", include_in_schema=False)
async def set_name(request: Request) -> Response:
    """Set the display name (form field ``name``)."""
    form = await request.form()
    player = await current_player(request)
    parlour = parlour_of(request)
    try:
        await parlour.call(parlour.store.rename, player.id, str(form.get("name", "")))
    except ParlourError:
        lang = await request_language(request)
        problem = StoreTexts(lang)("A name has 1 to 40 characters.")
        return await _player_page(request, problem=problem, status=400)
    return RedirectResponse("/player?saved=name", status_code=303)


@router.post("/player/recovery-code", include_in_schema=False)
async def show_recovery_code(request: Request) -> Response:
    """Make a new recovery code (the old one stops working) and show it once."""
    player = await current_player(request)
    parlour = parlour_of(request)
    code = await parlour.call(parlour.store.new_recovery_code, player.id)
    response = await _player_page(request, code=code)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/player/recover", include_in_schema=False)
async def redeem_recovery_code(request: Request) -> Response:
    """Continue as the player of a recovery code (form field ``code``) in this browser."""
    form = await request.form()
    parlour = parlour_of(request)
    try:
        token = await parlour.call(parlour.store.recover, str(form.get("code", "")))
    except ParlourError:
        await current_player(request)
        lang = await request_language(request)
        problem = StoreTexts(lang)("This recovery code is not valid.")
        return await _player_page(request, problem=problem, status=400)
    response = RedirectResponse("/player?saved=recovered", status_code=303)
    response.set_cookie(TOKEN_COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/")
    return response


@router.post("/player/preferences", include_in_schema=False)
async def set_preferences(request: Request) -> Response:
    """Save the preferences form: language, error help, Thirteen bot speed and strength."""
    form = await request.form()
    player = await current_player(request)
    parlour = parlour_of(request)
    lang_choice = str(form.get("lang", ""))
    changes: dict[str, Any] = {
        "lang": lang_choice or None,
        "error_help": form.get("error_help") == "on",
        "bot_speed": str(form.get("bot_speed", "")),
        "bot_strength": str(form.get("bot_strength", "")),
    }
    try:
        await parlour.call(lambda: parlour.store.set_preferences(player.id, **changes))
    except ParlourError:
        lang = await request_language(request)
        return await _player_page(
            request, problem=StoreTexts(lang)("These preferences are not valid."), status=400
        )
    response = RedirectResponse("/player?saved=preferences", status_code=303)
    if changes["lang"]:
        response.set_cookie(LANG_COOKIE, changes["lang"], max_age=COOKIE_AGE, samesite="lax", path="/")
    else:
        response.delete_cookie(LANG_COOKIE, path="/")
    return response
