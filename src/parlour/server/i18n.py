"""Languages on the web: which language a request gets, and the translation helpers pages use.

The language is, in order: the ``parlour_lang`` cookie (set by the language switcher), the player's
saved preference, then the browser's ``Accept-Language``. Page text lives in the ``web`` domain; games
add their own domains (named after them) and card names come from ``cards``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from parlour.errors import InvalidInput
from parlour.games.base import RANKED_OPEN_MESSAGE
from parlour.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    gettext_for,
    negotiate,
    ngettext_for,
    normalize_language,
    pgettext_for,
)

LANG_COOKIE: Final = "parlour_lang"
DOMAIN: Final = "web"


def supported(tag: str | None) -> str | None:
    """Return the supported language named by ``tag``, or None when it names none."""
    if not tag:
        return None
    try:
        return normalize_language(tag)
    except InvalidInput:
        return None


def choose_language(
    cookies: Mapping[str, str], accept_language: str | None, preference: str | None = None
) -> str:
    """Return the language for a request: cookie, then saved preference, then ``Accept-Language``."""
    return supported(cookies.get(LANG_COOKIE)) or supported(preference) or negotiate(accept_language)


@dataclass(frozen=True)
class Texts:
    """Translation helpers bound to one language, for templates and messages."""

    lang: str

    def __call__(self, message: str) -> str:
        """Translate a ``web`` message."""
        return gettext_for(self.lang, DOMAIN, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Translate a ``web`` message with a plural chosen for ``n``."""
        return ngettext_for(self.lang, DOMAIN, singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """Translate a ``web`` message with a context."""
        return pgettext_for(self.lang, DOMAIN, context, message)

    def domain(self, domain: str, message: str) -> str:
        """Translate a message of another domain (a game's own …)."""
        return gettext_for(self.lang, domain, message)


def language_choices() -> list[tuple[str, str]]:
    """Return (code, name in its own language) for the language switcher."""
    return [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]


_PROTOCOL_REASONS: Final = {
    "bad_json": "The message is not valid JSON.",
    "bad_message": "The message is not understood.",
    "too_large": "The message is too long.",
    "invalid_input": "The move is not understood.",
    "illegal_move": "That move is not allowed now.",
    "game_over": "The game is over.",
    "game_ended": "This game was ended in another window or tab. Reload the page to go on.",
    "not_saved": "Your move could not be saved. Please try again.",
    "rate_limited": "Too many requests: please wait a moment.",
    "table_unavailable": "The table cannot be reached just now: trying again…",
    "table_moved": "The table moved to another server: reconnecting…",
    "reviews_busy": "Many reviews are being made just now: try again in a moment.",
    "ranked_open": RANKED_OPEN_MESSAGE,
    "no_such_game": "There is no such game of yours.",
    "game_open": "This game is still being played.",
    "no_review": "This game has no review.",
    "not_challengeable": "This game cannot be offered as a challenge (today's daily deal can be tomorrow).",
    "no_such_daily_deal": "There is no daily deal of that game, rule set and day.",
    "no_such_numbered_game": "There is no such numbered game.",
    "unsupported_language": "That language is not offered.",
    "no_such_rules": "There is no rules page for that game.",
    "no_such_game_kind": "There is no such game.",
    "no_player": "This browser has no player yet.",
    "no_such_puzzle": "There is no such puzzle.",
}


def protocol_reason(code: str, lang: str) -> str:
    """Return the translated text of a generic reason code (the games explain their own codes)."""
    return gettext_for(lang, DOMAIN, _PROTOCOL_REASONS.get(code, "That move is not allowed now."))


def wait_reason(seconds: int, lang: str) -> str:
    """Return "Too many requests: try again in 12 s." in ``lang``: a refusal that says when."""
    return gettext_for(lang, DOMAIN, "Too many requests: try again in {seconds} s.").format(seconds=seconds)
