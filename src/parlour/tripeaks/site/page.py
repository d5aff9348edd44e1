"""The TriPeaks page: ``GET /tripeaks`` shows the player's open game (dealing one when there is none;
for a visitor who is not a player yet, the page's script deals it).

``/tripeaks?code=TP1-E-AAAAAAB`` deals that code and ``/tripeaks?number=123&rules=classic`` that numbered
game, then redirect to ``/tripeaks`` so that a reload does not deal again. The page's scripts get their
texts from the catalog embedded in the page (``web`` and ``tripeaks`` domains); card names come with each
view, so the page holds no list of cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.i18n import gettext_for, labelled
from parlour.i18n.cards import rank_letters
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    checked_form,
    current_player,
    known_player,
    parlour_of,
    render,
    request_language,
)
from parlour.server.pages.reviews import review_for_page
from parlour.store import Player
from parlour.tripeaks.definition import NAME, NUMBERED_GAMES, clock, review_texts
from parlour.tripeaks.layout import SLOT_PLACES
from parlour.tripeaks.rules import VARIANTS
from parlour.tripeaks.site import try_again
from parlour.tripeaks.site.charts import results_chart
from parlour.tripeaks.solver import compiled_available
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH, PLAYERS, STRENGTH_NAMES
from parlour.tripeaks.texts import page_text

router = APIRouter()
router.include_router(try_again.router)  # try again from here, in a review (issue 53)

TEMPLATE_HELPERS: Final = MappingProxyType({"results_chart": results_chart, "clock": clock})
"""What TriPeaks' templates are given besides a page's context (its statistics section's chart)."""

SCRIPT_TEXTS: Final = (
    "Score",
    "Moves",
    "Draw pile",
    "Discard pile",
    "hidden card",
    "empty",
    "You won!",
    "No more moves possible",
    "Final score: {score}",
    "Game #{number}",
    "Deal code copied",
    "Connection lost: reconnecting…",
    "This game cannot be opened here. Start a new game.",
    "This game was ended in another window or tab. Reload the page to go on.",
    "{card} removed.",
    "{card} turned face up.",
    "{card} drawn.",
    "Move taken back.",
    "Peak cleared! +{bonus}",
    "Start a new game?",
    "Start this deal again from the beginning?",
    "Thinking…",
    "Hint: play {the_card}.",
    "Hint: draw a card.",
    "Chance of winning: {chance} (± {margin})",
    "This game cannot be offered as a challenge now.",
    # The screen-reader mode's command box.
    "Type a card such as 7♣ (or 7c) to play it, or draw, undo, hint.",
    "Not a card: “{word}”. Write a card as 7♣ or 7c.",
    "{card} is not face up on the board.",
    "play",
    "draw",
    "undo",
    "hint",
    "new",
)
"""Texts the page's script shows (all in the ``web`` catalog)."""


def script_catalog(lang: str) -> dict[str, Any]:
    """Return the texts the TriPeaks script needs, translated into ``lang`` (card names come with views),
    and the form of a label before its value (``label``: "{label}:", French "{label}\u00a0:")."""
    return {
        "texts": {message: page_text(lang, message) for message in SCRIPT_TEXTS},
        "label": labelled("{label}", lang),
    }


def _definition(request: Request) -> GameDefinition:
    return parlour_of(request).games.get(NAME)


def deal_options(fields: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the New Game options a link or a form names (``code``, or ``number`` and ``rules``), None
    when it names none. A number that is not a plain decimal of at most six digits is passed on as text,
    so that the definition refuses it with ``invalid_number``."""
    if "code" in fields:
        return {"code": str(fields["code"])}
    if "number" in fields:
        text = str(fields["number"])
        number: Any = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else text
        return {"number": number, "rules": str(fields.get("rules", "easy"))}
    return None


async def _start_from_link(request: Request, player: Player, options: dict[str, Any]) -> Response:
    """Deal what a link named (checked already) at once when the player has no game in play, else ask
    first (a GET never ends a game). Returns the redirect or the confirmation page."""
    parlour = parlour_of(request)
    definition = _definition(request)
    if await parlour.current(definition, player.id) is not None:
        lang = await request_language(request)
        return await render(
            request,
            "tripeaks_confirm_deal.html",
            {"options": options, "tt": lambda message: page_text(lang, message), "notice": None},
        )
    await parlour.start(definition, player.id, options)
    return RedirectResponse("/tripeaks", status_code=303)


@router.post("/tripeaks/deal", include_in_schema=False)
async def deal_confirmed(request: Request) -> Response:
    """Deal what a confirmed link named (form fields ``code``, or ``number`` and ``rules``; CSRF token)."""
    form = await checked_form(request)
    options = deal_options(form)
    parlour = parlour_of(request)
    player = await current_player(request)
    if options is not None:
        # A refused deal leaves the game in play, which the table page shows (the link was checked).
        try:
            await parlour.start(_definition(request), player.id, options)
        except EDGE_ERRORS:
            raise
        except ParlourError:
            pass
    response = RedirectResponse("/tripeaks", status_code=303)
    return response


@router.get("/tripeaks", include_in_schema=False)
async def tripeaks_page(request: Request) -> Response:
    """The TriPeaks table with the player's open game (one is dealt when there is none).

    A visitor who is not a player yet gets the page without a game: its script deals the first one
    (``POST /api/games/tripeaks``, with the deal a link named), which makes the player, so that a page
    view (a crawler's, a link preview's) makes nobody.
    """
    parlour = parlour_of(request)
    kind = _definition(request)
    player = await known_player(request)
    notice = None
    first_deal: dict[str, Any] = {}
    try:
        options = deal_options(request.query_params)
        if options is not None:
            kind.new(options)  # checks the options, dealing nothing that is kept
            if player is not None:
                return await _start_from_link(request, player, options)
            first_deal = options
    except EDGE_ERRORS:
        raise
    except ParlourError as error:
        notice = kind.explain(error.code, await request_language(request)) or str(error)
    game_id = None
    if player is not None:
        owner = await parlour.current(kind, player.id)
        if owner is None:
            owner, _ = await parlour.start(kind, player.id, {})
        game_id = owner.game_id
    lang = await request_language(request)
    preferences = await parlour.call(parlour.store.preferences, player.id if player else None)
    settings = {
        "error_help": preferences.get("error_help", True) is not False,
        "sound": preferences.get("sound", True) is not False,
        "hint_strength": strength
        if (strength := preferences.get("hint_strength")) in PLAYERS
        else DEFAULT_STRENGTH,
    }
    return await render(
        request,
        "tripeaks.html",
        {
            "game_id": game_id,
            "script_data": {
                "game": game_id,
                "firstDeal": first_deal,
                "lang": lang,
                "settings": settings,
                # The layout's geometry, from the engine's one description of it.
                "slots": [list(place) for place in SLOT_PLACES],
                "rankLetters": rank_letters(lang),
                **script_catalog(lang),
            },
            "settings": settings,
            "variants": VARIANTS,
            "numbered_games": NUMBERED_GAMES,
            "notice": notice,
            "hints": compiled_available(),
            "hint_strengths": [(value, gettext_for(lang, "web", STRENGTH_NAMES[value])) for value in PLAYERS],
            "tt": lambda message: page_text(lang, message),
            "ranked_note": gettext_for(lang, "store", kind.ranked_note),
        },
    )


REVIEW_TEXTS: Final = (
    "Previous move",
    "Next move",
    "Show the shortest win",
    "Back to the game's moves",
    "Try again from here",
    "Back to the review",
    "draw",
)
"""Texts the review page's script shows (``web`` catalog)."""


@router.get("/tripeaks/review/{game_id}", include_in_schema=False)
async def review_page(request: Request, game_id: str) -> Response:
    """The review of a finished TriPeaks game of the player: the board at every move (←/→, a slider),
    the graded moves, and the shortest win from before the move that lost the game. A game in play has
    no review (its cards are hidden): the page says so (409); another player's game or none is 404."""
    found = await review_for_page(request, game_id, NAME)
    if isinstance(found, Response):
        return found
    _, review = found
    lang = await request_language(request)
    said = review_texts(review, lang)
    steps = [f"{labelled(page_text(lang, 'The deal'), lang)} {said['steps'][0]}", *said["steps"][1:]]
    return await render(
        request,
        "tripeaks_review.html",
        {
            "head": said["head"],
            "foot": said["foot"],
            "winning_line": review["winning_line"],
            "code": review["code"],
            "script_data": {
                "review": review,
                "steps": steps,
                "line": said["line"],
                "slots": [list(place) for place in SLOT_PLACES],
                "rankLetters": rank_letters(lang),
                "texts": {message: page_text(lang, message) for message in (*SCRIPT_TEXTS, *REVIEW_TEXTS)},
                "label": labelled("{label}", lang),
            },
            "tt": lambda message: page_text(lang, message),
        },
    )
