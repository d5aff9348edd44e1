"""The rules pages, ``/rules/{game}`` for every registered game with rules, in every supported language.

The text is in the ``rules`` catalogs (English is the msgid; where a game's rules come from source
documents in other languages, those languages' texts are the documents' own words). Small card
pictures are drawn in HTML with each card's spoken name for screen readers, from
``parlour.i18n.cards``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from fastapi import APIRouter, Request
from markupsafe import Markup, escape
from starlette.responses import Response

from parlour.cards import Card
from parlour.i18n import gettext_for
from parlour.i18n.cards import card_name, rank_letters
from parlour.server.pages.requests import parlour_of, refused, render, request_language

DOMAIN: Final = "rules"


router = APIRouter()


def translator(lang: str, domain: str = DOMAIN) -> Callable[[str], str]:
    """Return the translation function of ``lang`` for ``domain`` (the rules pages' own texts by default;
    each game's rules are in its own catalog)."""
    return lambda message: gettext_for(lang, domain, message)


def card_pictures(lang: str) -> Callable[[str], Markup]:
    """Return a template helper drawing cards such as ``"QC 2S TH"`` as a row of small cards.

    Raises:
        InvalidCard: a card text in a template is wrong (a programming error, caught by the tests).
    """

    letters = rank_letters(lang)

    def draw(texts: str) -> Markup:
        parts = []
        for text in texts.split():
            card = Card.parse(text)
            pretty = card.pretty()
            rank, suit = pretty[:-1], pretty[-1]
            rank = letters.get(rank, rank)  # French R for roi, Hungarian B for bubi …
            colour = "red" if suit in "♥♦" else "black"
            # suit-X: the suit's colour in the player's deck (two or four colours); J for a joker.
            colour += f" suit-{card.suit.letter if card.suit is not None else 'J'}"
            parts.append(
                f'<span class="mini-card {colour}" role="img" aria-label="{escape(card_name(card, lang))}">'
                f'<span class="mini-rank">{escape(rank)}</span><span class="mini-suit">{escape(suit)}</span>'
                "</span>"
            )
        return Markup('<span class="mini-cards">' + "".join(parts) + "</span>")

    return draw


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(request: Request, game: str) -> Response:
    """The rules of a registered game that has a rules page, in the request's language; 404 otherwise."""
    games = parlour_of(request).games
    definition = games.find(game)
    rules = definition.rules if definition is not None else None
    if definition is None or rules is None:
        return await refused(request, "no_such_rules", 404, game=game[:40])
    lang = await request_language(request)
    t = translator(lang, rules.domain)
    others = [(other.name, other.rules) for other in games if other.rules is not None and other.name != game]
    context = {
        "t": t,  # the game's rules, in its own catalog
        "r": translator(lang),  # the rules pages' own texts
        "cards": card_pictures(lang),
        "game": game,
        "game_page": definition.page,
        "others": [
            {"path": f"/rules/{name}", "title": gettext_for(lang, page.domain, page.title)}
            for name, page in others
        ],
        **rules.context,
    }
    return await render(request, rules.template, context)
