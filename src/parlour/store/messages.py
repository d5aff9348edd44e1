"""What the page tells a player when a numbered game or an attempt at a daily deal ends or is left, in
their language (domain ``store``)."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.i18n import gettext_for
from parlour.store.types import Outcome

DOMAIN = "store"

FIRST_WIN = "You are the first to win game #{number}!"
RECORD_BROKEN = "You broke the record of game #{number}!"
HOLDS_RECORD = "You hold the best result of game #{number}."
PERSONAL_BEST = "Your best result of game #{number} so far."
DAILY_COUNTED = "This attempt counts for the day's leaderboard."
DAILY_PRACTICE = "Practice: only your first attempt of the day to end counts."


def record_messages(outcome: Outcome, lang: str) -> list[str]:
    """Return the record news of a finished or left numbered game in ``lang`` (empty when there is none).

    Raises:
        InvalidInput: the language is not supported.
    """
    flags = {
        "numbered": outcome.numbered,
        "first_win": outcome.first_win,
        "record_broken": outcome.record_broken,
        "holds_record": outcome.holds_record,
        "personal_best": outcome.personal_best,
        "daily": outcome.daily,
    }
    return news_lines(flags, lang)


def news_lines(flags: Mapping[str, object], lang: str) -> list[str]:
    """Return the record news told by an outcome's flags (``numbered``, ``first_win`` …) in ``lang``.

    The most notable news comes first: first to win, else broke the record, else holds the best
    result, else a new personal best.

    Raises:
        InvalidInput: the language is not supported.
    """
    daily = {"counted": DAILY_COUNTED, "practice": DAILY_PRACTICE}.get(str(flags.get("daily")))
    if daily is not None:  # an attempt at a daily deal (which is never a numbered game)
        return [gettext_for(lang, DOMAIN, daily)]
    number = flags.get("numbered")
    if number is None:
        return []
    news = []
    if flags.get("first_win"):
        news.append(FIRST_WIN)
    elif flags.get("record_broken"):
        news.append(RECORD_BROKEN)
    elif flags.get("holds_record"):
        news.append(HOLDS_RECORD)
    elif flags.get("personal_best"):
        news.append(PERSONAL_BEST)
    return [gettext_for(lang, DOMAIN, message).format(number=number) for message in news]
