"""TriPeaks text in every supported language: reason codes, end messages and the spoken board description.

The engine speaks reason codes and JSON states; this module turns them into sentences through the
``tripeaks`` gettext domain. ``describe`` works on the player's view (``Game.to_json()`` without
``reveal``), so it cannot say anything the player may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from parlour.cards import Card
from parlour.i18n import gettext_for, ngettext_for, pgettext_for
from parlour.i18n.cards import card_name
from parlour.tripeaks.layout import ROWS

DOMAIN: Final = "tripeaks"

REASONS: Final = {
    "not_adjacent": "Rank must be exactly one higher or lower",
    "blocked": "This card is blocked",
    "stock_empty": "The draw pile is empty",
    "nothing_to_undo": "Nothing to undo",
    "game_over": "The game is over",
    "must_play": "A card fits: play it before drawing",
    "undo_ranked": "In a ranked game, undo cannot hide a card you have seen",
}
ERROR_HELP_REASONS: Final = frozenset({"not_adjacent", "blocked"})
"""The reasons that the "error help" setting explains (and that stay silent when it is off)."""
SEED_TEXTS: Final = frozenset(
    {"Score", "Moves", "Draw pile", "Discard pile", "hidden card", "No more moves possible"}
)
"""The seed apps' own interface texts that the web page shows too: they are translated in this domain
(the seeds' words, verbatim); the page's other texts are in ``web``."""


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


def page_text(lang: str, message: str) -> str:
    """Translate a text of the TriPeaks page: a seed text from this domain, any other from ``web``."""
    domain = DOMAIN if message in SEED_TEXTS else "web"
    return gettext_for(lang, domain, message)


def reason_text(code: str, lang: str) -> str:
    """Return the sentence for a reason code of the engine (``not_adjacent`` …) in ``lang``.

    Raises:
        KeyError: the code is not a TriPeaks reason code.
    """
    return _(lang, REASONS[code])


def no_more_moves(lang: str) -> str:
    """ "No more moves possible" in ``lang`` (the stuck message)."""
    return _(lang, "No more moves possible")


def won_text(score: int, lang: str) -> str:
    """The message for a won game with its final score."""
    return _(lang, "You won! Score: {score}").format(score=score)


def cards_count(count: int, lang: str) -> str:
    """ "23 cards" in ``lang`` with the right plural form."""
    return ngettext_for(lang, DOMAIN, "{count} card", "{count} cards", count).format(count=count)


def rules_name(name: str, lang: str) -> str:
    """``easy``/``classic`` as the app names them in ``lang`` ("Easy", "Könnyű" …)."""
    if name == "easy":
        return pgettext_for(lang, DOMAIN, "rules", "Easy")
    return pgettext_for(lang, DOMAIN, "rules", "Classic")


def variant_names(variants: tuple[str, ...], lang: str) -> list[str]:
    """The names of variants (``Rules.variants``) for people, in ``lang``."""
    names = {
        "open_peaks": pgettext_for(lang, DOMAIN, "variant", "open peaks"),
        "empty_discard": pgettext_for(lang, DOMAIN, "variant", "empty discard pile"),
        "joker": pgettext_for(lang, DOMAIN, "variant", "joker"),
        "draw_only_when_stuck": pgettext_for(lang, DOMAIN, "variant", "draw only when no card fits"),
        "traditional_scoring": pgettext_for(lang, DOMAIN, "variant", "traditional scoring"),
    }
    return [names[variant] for variant in variants]


def describe(state: Mapping[str, Any], lang: str) -> str:
    """Return the spoken description of a board from its JSON view, in ``lang``.

    The form is the seeds': "Draw pile: 23 cards; discard pile: ace of clubs. Peak tops: hidden card, …;
    row 2: …; row 3: …; bottom row: …." Removed cards are left out; a face-down card is "hidden card",
    even in a revealed state (``to_json(reveal=True)``).
    """
    discard = state["discard"]
    discard_text = (
        card_name(Card.parse(discard[-1]), lang) if discard else pgettext_for(lang, DOMAIN, "pile", "empty")
    )
    rows: list[str] = []
    for row in ROWS:
        names = [
            card_name(Card.parse(entry["card"]), lang) if entry["face_up"] else _(lang, "hidden card")
            for entry in (state["tableau"][p] for p in row)
            if not entry["removed"]
        ]
        rows.append(", ".join(names) if names else pgettext_for(lang, DOMAIN, "row", "no cards"))
    template = _(
        lang,
        "Draw pile: {stock}; discard pile: {discard}. Peak tops: {tops}; row 2: {row2}; row 3: {row3}; "
        "bottom row: {bottom}.",
    )
    return template.format(
        stock=cards_count(state["stock"], lang),
        discard=discard_text,
        tops=rows[0],
        row2=rows[1],
        row3=rows[2],
        bottom=rows[3],
    )
