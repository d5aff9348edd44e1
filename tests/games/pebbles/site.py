"""Pebbles' page (``GET /pebbles``), from its own folder: the template, the script and the style sheet
beside this module, its texts in its own catalog (``pebbles/locale``). The platform serves them because
the definition names this module (``page_module``); nothing of the platform names Pebbles."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from starlette.responses import Response

from parlour.i18n import gettext_for
from parlour.server.pages.requests import known_player, parlour_of, render, request_language

from .game import NAME

router = APIRouter()

DOMAIN: Final = "pebbles"
"""Pebbles' own catalog: its page's and its terminal screen's texts."""

SCRIPT_TEXTS: Final = (
    "Your turn: take 1, 2 or 3 pebbles.",
    "The computer is thinking…",
    "You took {count}.",
    "The computer took {count}.",
    "You took the last pebble and win the round.",
    "The computer took the last pebble and wins the round.",
    "You win the game!",
    "The computer wins the game.",
    "Connection lost: reconnecting…",
    "{n} pebbles left",
    "Round {round}",
)
"""What the page's script says, in the page's language."""


def texts(lang: str) -> dict[str, str]:
    """Return the script's texts in ``lang``, by their English text."""
    return {message: gettext_for(lang, DOMAIN, message) for message in SCRIPT_TEXTS}


@router.get("/pebbles", include_in_schema=False)
async def pebbles_page(request: Request) -> Response:
    """The player's open game of Pebbles; a visitor who is no player yet gets the page, whose script
    deals the first game (which makes the player), so a page view makes nobody."""
    parlour = parlour_of(request)
    definition = parlour.games.get(NAME)
    player = await known_player(request)
    game_id = None
    if player is not None:
        owner = await parlour.current(definition, player.id)
        game_id = None if owner is None else owner.game_id
    lang = await request_language(request)
    t = lambda message: gettext_for(lang, DOMAIN, message)  # noqa: E731
    return await render(request, "pebbles.html", {"t": t, "boot": {"game": game_id, "texts": texts(lang)}})
