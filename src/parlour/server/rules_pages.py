"""The rules pages, ``/rules/tripeaks`` and ``/rules/thirteen``, in every supported language.

The text is in the ``rules`` catalogs (English is the msgid; the Hindi and Hungarian TriPeaks texts are
the seed documents' own words). Small card pictures are drawn in HTML with each card's spoken name for
screen readers, from ``parlour.i18n.cards``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from markupsafe import Markup, escape
from starlette.responses import Response

from parlour.cards import Card
from parlour.i18n import gettext_for
from parlour.i18n.cards import card_name
from parlour.server.context import current_player, render, request_language

DOMAIN: Final = "rules"


@dataclass(frozen=True)
class RulesPage:
    """One game's rules page: its template, its title (a ``rules`` msgid) and the game's own page."""

    template: str
    title: str
    game_page: str


PAGES: Final = {
    "tripeaks": RulesPage("rules_tripeaks.html", "TriPeaks rules", "/tripeaks"),
    "thirteen": RulesPage("rules_thirteen.html", "Thirteen rules", "/thirteen"),
}


def _peak_positions() -> tuple[tuple[float, int], ...]:
    """Return (x in card widths, row) of the 28 TriPeaks positions, each card centred over its covers."""
    bottom = [float(i) for i in range(10)]
    third = [j + 0.5 for j in range(9)]
    second = [third[k + k // 2] + 0.5 for k in range(6)]
    tops = [(second[2 * t] + second[2 * t + 1]) / 2 for t in range(3)]
    rows = (tops, second, third, bottom)
    return tuple((x, row) for row, xs in enumerate(rows) for x in xs)


PEAK_POSITIONS: Final = _peak_positions()
"""The TriPeaks layout for the small picture on the rules page (only the bottom row, row 3, face up)."""

router = APIRouter()


def translator(lang: str) -> Callable[[str], str]:
    """Return the ``rules`` translation function of ``lang``."""
    return lambda message: gettext_for(lang, DOMAIN, message)


def card_pictures(lang: str) -> Callable[[str], Markup]:
    """Return a template helper drawing cards such as ``"QC 2S TH"`` as a row of small cards.

    Raises:
        InvalidCard: a card text in a template is wrong (a programming error, caught by the tests).
    """

    def draw(texts: str) -> Markup:
        parts = []
        for text in texts.split():
            card = Card.parse(text)
            pretty = card.pretty()
            rank, suit = pretty[:-1], pretty[-1]
            colour = "red" if suit in "♥♦" else "black"
            parts.append(
                f'<span class="mini-card {colour}" role="img" aria-label="{escape(card_name(card, lang))}">'
                f'<span class="mini-rank">{escape(rank)}</span><span class="mini-suit">{escape(suit)}</span>'
                "</span>"
            )
        return Markup('<span class="mini-cards">' + "".join(parts) + "</span>")

    return draw


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(request: Request, game: str) -> Response:
    """The rules of ``game`` (``tripeaks`` or ``thirteen``) in the request's language; 404 otherwise."""
    page = PAGES.get(game)
    if page is None:
        return JSONResponse({"code": "no_such_rules", "game": game}, status_code=404)
    await current_player(request)
    lang = await request_language(request)
    t = translator(lang)
    other_game = "thirteen" if game == "tripeaks" else "tripeaks"
    other = PAGES[other_game]
    context = {
        "t": t,
        "cards": card_pictures(lang),
        "game": game,
        "game_page": page.game_page,
        "other": {"path": f"/rules/{other_game}", "title": t(other.title)},
        "peak_positions": PEAK_POSITIONS,
    }
    return await render(request, page.template, context)
