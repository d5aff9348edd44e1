"""What the page tells a player when a numbered game ends or is left, in their language (domain ``store``)."""

from __future__ import annotations

from parlour.i18n import gettext_for
from parlour.store.types import Outcome

DOMAIN = "store"

FIRST_WIN = "You are the first to win game #{number}!"
RECORD_BROKEN = "You broke the record of game #{number}!"
HOLDS_RECORD = "You hold the best result of game #{number}."
PERSONAL_BEST = "Your best result of game #{number} so far."


def record_messages(outcome: Outcome, lang: str) -> list[str]:
    """Return the record news of a finished or left numbered game in ``lang`` (empty when there is none).

    The most notable news comes first: first to win, else broke the record, else holds the best
    result; a new personal best is added when the record is somebody else's.

    Raises:
        InvalidInput: the language is not supported.
    """
    if outcome.numbered is None:
        return []
    news = []
    if outcome.first_win:
        news.append(FIRST_WIN)
    elif outcome.record_broken:
        news.append(RECORD_BROKEN)
    elif outcome.holds_record:
        news.append(HOLDS_RECORD)
    elif outcome.personal_best:
        news.append(PERSONAL_BEST)
    return [gettext_for(lang, DOMAIN, message).format(number=outcome.numbered) for message in news]
