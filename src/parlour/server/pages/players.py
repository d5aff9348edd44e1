"""The player's own pages: statistics (with charts) and the player page.

Also the JSON a game page uses when a game ends: ``GET /api/games/{game_id}/outcome`` gives the replayed
result and the record news (first to win, broke the record, holds the best result) in the page's
language. Page text is in the ``store`` gettext domain.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Final

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition, Status
from parlour.games.ratings import closest
from parlour.games.registry import Registry
from parlour.i18n import LANGUAGE_NAMES, gettext_for, normalize_language
from parlour.server.context import Parlour
from parlour.server.edge.browser_names import parts
from parlour.server.edge.player_cookie import COOKIE_AGE, TOKEN_COOKIE
from parlour.server.i18n import LANG_COOKIE, Texts
from parlour.server.pages.passkeys import relying_party
from parlour.server.pages.players_chart import line_chart
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    checked_form,
    current_player,
    known_player,
    parlour_of,
    read_form,
    refused,
    render,
    request_language,
)
from parlour.server.pages.sign_in import PREVIOUS_COOKIE, agent_of, merge_candidate, sign_in_browser
from parlour.store import PlayedGame, Player, UnknownGame
from parlour.store.messages import record_messages
from parlour.store.preferences import CARD_BACKS, CARD_SIZES, CHOICES, DECKS, FELTS, THEMES, game_preferences

router = APIRouter()

DOMAIN: Final = "store"


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
    """The player's statistics: one section per game (its definition's template), with charts; a
    visitor with no player yet sees every game's figures of no game."""
    player = await known_player(request)
    parlour = parlour_of(request)
    stats = await parlour.call(parlour.store.statistics, player.id if player else None)
    sections = [
        {"game": game, "figures": stats[game.name], "template": game.statistics_template}
        for game in parlour.games
        if game.statistics_template is not None and game.name in stats.games
    ]
    played = await parlour.call(parlour.store.finished_games, player.id if player else None, HISTORY)
    lang = await request_language(request)
    return await _page(
        request,
        "stats.html",
        {"sections": sections, "history": [_history_entry(parlour.games, game, lang) for game in played]},
    )


_A_WEEK: Final = tuple(date(2024, 1, 1) + timedelta(days=n) for n in range(7))
"""A week from a Monday, for the calendar's weekday initials."""
HISTORY: Final = 20
"""How many of the player's last finished games the statistics page lists."""
STATUS_WORDS: Final = {
    Status.WON: "Won",
    Status.STUCK: "Not won",
    Status.FINISHED: "Finished",
    Status.LEFT: "Left unfinished",
}
"""How a game ended, as the history says it (``store`` catalog)."""


def _history_entry(games: Registry, played: PlayedGame, lang: str) -> dict[str, Any]:
    """Return one finished game as the history lists it: when, which game (and number), how it
    ended, and its review's address when its game reviews such a game."""
    definition = games.find(played.game)
    review = None
    reviewed = definition is not None and definition.reviews and played.status in definition.reviewed
    if reviewed and definition is not None and definition.review_page:
        review = definition.review_page.format(game_id=played.game_id)
    return {
        "when": format_date(played.finished_at, "medium", locale=normalize_language(lang)),
        "iso": played.finished_at.isoformat(),
        "title": definition.title if definition is not None else played.game,
        "numbered": played.numbered,
        "status": STATUS_WORDS.get(played.status, played.status),
        "review": review,
    }


@router.get("/api/stats")
async def statistics_json(request: Request) -> Response:
    """The player's statistics as JSON: ``{game: figures}`` (figures of no game without a player)."""
    player = await known_player(request)
    parlour = parlour_of(request)
    stats = await parlour.call(parlour.store.statistics, player.id if player else None)
    return JSONResponse(stats.to_json())


@router.get("/api/games/{game_id}/outcome")
async def game_outcome(request: Request, game_id: str) -> Response:
    """The outcome of one of the player's finished games, with the record news in the page's language.

    200 ``{"outcome": {…}, "messages": [...]}``; 409 ``{"code": "game_open"}`` while the game is being
    played; 404 ``{"code": "no_such_game"}`` for an unknown game or another player's game.
    """
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_such_game", 404)
    parlour = parlour_of(request)
    try:
        outcome = await parlour.call(parlour.store.game_outcome, game_id, player.id)
    except UnknownGame:
        return await refused(request, "no_such_game", 404)
    if outcome is None:
        return await refused(request, "game_open", 409)
    lang = await request_language(request)
    return JSONResponse({"outcome": outcome.to_json(), "messages": record_messages(outcome, lang)})


@router.post("/api/games/{game_id}/leave")
async def leave_game(request: Request, game_id: str) -> Response:
    """Leave one of the player's games unfinished (or take the outcome of a finished one).

    The result is the server's replay of the moves stored so far; for a numbered game it enters the
    records, and the answer carries the record news like ``GET /api/games/{game_id}/outcome``.
    404 ``{"code": "no_such_game"}`` for an unknown game or another player's game.
    """
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_such_game", 404)
    parlour = parlour_of(request)
    owner = parlour.live.get(game_id)
    if owner is not None and owner.player_id == player.id:
        await parlour.abandon(owner)
    try:
        outcome = await parlour.write(parlour.store.finish_game, game_id, player.id)
    except UnknownGame:
        return await refused(request, "no_such_game", 404)
    lang = await request_language(request)
    return JSONResponse({"outcome": outcome.to_json(), "messages": record_messages(outcome, lang)})


@router.get("/player", include_in_schema=False)
async def player_page(request: Request) -> Response:
    """The player page: display name, recovery code, redeeming a code, preferences."""
    return await player_page_response(request)


async def player_page_response(
    request: Request,
    *,
    code: str | None = None,
    problem: str | None = None,
    status: int = 200,
    link: dict[str, Any] | None = None,
) -> Response:
    """Return the player page; ``code`` a recovery code to show once, ``link`` a link code (its code,
    address, expiry and QR image), ``problem`` what a form got wrong (with ``status``)."""
    player = await known_player(request)
    parlour = parlour_of(request)
    preferences = await parlour.call(parlour.store.preferences, player.id if player else None)
    lang = await request_language(request)
    locale = normalize_language(lang)
    streaks = [
        {
            "game": game,
            "streaks": await parlour.call(
                parlour.store.daily_streaks, game.name, player.id if player else None
            ),
        }
        for game in parlour.games
        if game.daily is not None
    ]
    ratings = [
        await _rating_of(parlour, game, player.id if player else None, lang)
        for game in parlour.games
        if game.seated is not None and game.seated.computer_ratings
    ]
    response = await _page(
        request,
        "player.html",
        {
            "daily_streaks": streaks,
            "ratings": ratings,
            "weekday_names": [format_date(day, "EEEEE", locale=locale) for day in _A_WEEK],
            "day_label": lambda day: format_date(day, "medium", locale=locale),
            "preferences": preferences,
            "recovery_code": code,
            "problem": problem,
            "language_names": LANGUAGE_NAMES,
            "game_settings": game_preferences(parlour.games),
            "felts": FELTS,
            "card_backs": CARD_BACKS,
            "themes": THEMES,
            "decks": DECKS,
            "card_sizes": CARD_SIZES,
            "saved": request.query_params.get("saved"),
            **await _devices(request, player),
            "link": link,
        },
    )
    response.status_code = status
    return response


async def _devices(request: Request, player: Player | None) -> dict[str, Any]:
    """Return the player page's part about devices: the browsers signed in as the player, their
    passkeys, whether passkeys work on this site, and the merge on offer (decision 0064)."""
    parlour = parlour_of(request)
    browsers = passkeys = []
    if player is not None:
        browsers = await parlour.call(parlour.store.browsers, player.id, request.cookies.get(TOKEN_COOKIE))
        passkeys = await parlour.call(parlour.store.passkeys, player.id)
    merge_offer = player is not None and PREVIOUS_COOKIE in request.cookies
    return {
        "browsers": browsers,
        "passkeys": passkeys,
        "passkeys_on": relying_party(request) is not None,
        "merge_offer": merge_offer,
        "browser_label": browser_label,
    }


def browser_label(kept: str | None, s: StoreTexts) -> str:
    """Return a browser's rough name in words: "Chrome on Android", "Firefox", "a browser"."""
    browser, system = parts(kept)
    if browser and system:
        return s("{browser} on {system}", browser=browser, system=system)
    return browser or system or s("A browser")


async def _rating_of(
    parlour: Parlour, game: GameDefinition, player_id: int | None, lang: str
) -> dict[str, Any]:
    """Return a seated game's rating section of the player page: the rating (None before a rated
    round), the computer player nearest it (by name in ``lang``) and the chart of its history."""
    seated = game.seated
    assert seated is not None
    skill = await parlour.call(parlour.store.rating, game.name, player_id) if player_id is not None else None
    if skill is None:
        return {"game": game, "skill": None, "closest": None, "chart": Markup("")}
    history = await parlour.call(parlour.store.rating_history, game.name, player_id)
    nearest = closest(skill, dict(seated.computer_ratings))
    summary = Texts(lang)("Your rating after each rated round")
    chart = line_chart([(float(point.shown), float(point.spread)) for _, point in history], summary)
    return {
        "game": game,
        "skill": skill,
        "closest": seated.strength_label(nearest, lang) if nearest else None,
        "chart": chart,
    }


class NameForm(BaseModel):
    """The display name form (checked by the store: 1 to 40 characters)."""

    name: str = ""


class RecoveryForm(BaseModel):
    """The form of a recovery code typed in another browser."""

    code: str = ""


class PreferencesForm(BaseModel):
    """The preferences form: the language (empty: as the browser says), the three boxes (``on`` when
    ticked), the table colour, card back, theme, deck and card size, and the games' own settings (by
    their names, in ``model_extra``); the store checks each value."""

    model_config = ConfigDict(extra="allow")

    lang: str = ""
    error_help: str | None = None
    sound: str | None = None
    screen_reader: str | None = None
    felt: str | None = None
    card_back: str | None = None
    theme: str | None = None
    deck: str | None = None
    card_size: str | None = None


NAME_PROBLEMS: Final = {
    "name_taken": "Another player has that name, or one that reads the same: choose another.",
    "mixed_scripts": "A name is written in one alphabet, with no hidden characters.",
    "name_reserved": "That name could pass for a computer player or the site: choose another.",
    "name_blocked": "That name cannot be shown to other players: choose another.",
    "name_too_soon": "A name changes once a day: try again tomorrow.",
}
"""What the player page says of a refused name, by its reason (``store`` msgids)."""


@router.post("/player/name", include_in_schema=False)
async def set_name(request: Request) -> Response:
    """Set the display name (form field ``name``)."""
    form = read_form(await checked_form(request), NameForm)
    player = await current_player(request)
    parlour = parlour_of(request)
    try:
        await parlour.write(parlour.store.rename, player.id, form.name)
    except EDGE_ERRORS:
        raise
    except ParlourError as error:
        lang = await request_language(request)
        problem = StoreTexts(lang)(NAME_PROBLEMS.get(error.code, "A name has 1 to 40 characters."))
        return await player_page_response(request, problem=problem, status=400)
    return RedirectResponse("/player?saved=name", status_code=303)


@router.post("/player/recovery-code", include_in_schema=False)
async def show_recovery_code(request: Request) -> Response:
    """Make a new recovery code (the old one stops working) and show it once."""
    await checked_form(request)
    player = await current_player(request)
    parlour = parlour_of(request)
    code = await parlour.write(parlour.store.new_recovery_code, player.id)
    response = await player_page_response(request, code=code)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/player/sign-out-elsewhere", include_in_schema=False)
async def sign_out_elsewhere(request: Request) -> Response:
    """Sign the player out on every other browser (their tokens stop working); this one stays."""
    await checked_form(request)
    player = await known_player(request)
    if player is None:  # no player, so no other browser to sign out
        return RedirectResponse("/player", status_code=303)
    parlour = parlour_of(request)
    await parlour.write(parlour.store.sign_out_elsewhere, player.id, request.cookies.get(TOKEN_COOKIE))
    return RedirectResponse("/player?saved=signed-out", status_code=303)


@router.post("/player/recover", include_in_schema=False)
async def redeem_recovery_code(request: Request) -> Response:
    """Continue as the player of a recovery code (form field ``code``) in this browser."""
    form = read_form(await checked_form(request), RecoveryForm)
    parlour = parlour_of(request)
    try:
        token = await parlour.write(parlour.store.recover, form.code, agent_of(request))
    except EDGE_ERRORS:
        raise
    except ParlourError:
        lang = await request_language(request)
        problem = StoreTexts(lang)("This recovery code is not valid.")
        return await player_page_response(request, problem=problem, status=400)
    player = await parlour.call(parlour.store.player_by_token, token)
    previous = await merge_candidate(request, player.id) if player is not None else None
    response = RedirectResponse("/player?saved=recovered", status_code=303)
    sign_in_browser(request, response, token, previous)
    return response


@router.post("/player/preferences", include_in_schema=False)
async def set_preferences(request: Request) -> Response:
    """Save the preferences form: language, error help, sound, the look (table colour, card back, theme,
    deck, card size), and the games' own settings (their computer players' …)."""
    form = read_form(await checked_form(request), PreferencesForm)
    player = await current_player(request)
    parlour = parlour_of(request)
    changes: dict[str, Any] = {
        "lang": form.lang or None,
        "error_help": form.error_help == "on",
        "sound": form.sound == "on",
        "screen_reader": form.screen_reader == "on",
    }
    for name in CHOICES:  # the look: table colour, card back, theme, deck, card size
        if getattr(form, name) is not None:
            changes[name] = getattr(form, name)
    given = form.model_extra or {}
    for name in game_preferences(parlour.games):
        if name in given:  # a form from before a game added a setting leaves that setting as it is
            changes[name] = str(given[name])
    try:
        await parlour.write(lambda: parlour.store.set_preferences(player.id, **changes))
    except EDGE_ERRORS:
        raise
    except ParlourError:
        lang = await request_language(request)
        return await player_page_response(
            request, problem=StoreTexts(lang)("These preferences are not valid."), status=400
        )
    response = RedirectResponse("/player?saved=preferences", status_code=303)
    if changes["lang"]:
        response.set_cookie(LANG_COOKIE, changes["lang"], max_age=COOKIE_AGE, samesite="lax", path="/")
    else:
        response.delete_cookie(LANG_COOKIE, path="/")
    return response
