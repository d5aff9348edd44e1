"""Rate limits: how fast one address may make players and one player may make games and ask for hints.

Counted with the ``limits`` library (moving windows, in this process's memory). Without them one client
could create players and games without end (every one a database row) or keep the solver busy.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from limits import RateLimitItem, parse, storage, strategies

from parlour.errors import ParlourError

DEFAULT_LIMITS: Final = {
    "new_player": "60/minute;600/hour",
    "new_game": "60/minute",
    "hint": "30/minute",
    "new_table": "10/minute;60/hour",
    "find_table": "30/minute;300/hour",
    "chat": "5/10second;40/minute",
}
"""Each rule's limits (``limits`` notation), by what is counted: new players per address, new games,
hints and new tables per player, table codes tried per address (codes are short: guessing them takes
many tries), chat per table seat. Generous for people, tight for a script."""
MAX_SOCKETS: Final = 8
"""Connections one game accepts at once (a player's tabs and devices)."""
MAX_TABLE_SOCKETS: Final = 24
"""Connections one friends' table accepts at once (four people's tabs and devices, and friends
still choosing a seat)."""


class RateLimited(ParlourError):
    """Too many requests of one kind in a short time; ``retry_after`` says when to try again (seconds)."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class RateLimits:
    """The server's counters; ``rules`` overrides :data:`DEFAULT_LIMITS` by name."""

    rules: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        self._storage = storage.MemoryStorage()
        self._limiter = strategies.MovingWindowRateLimiter(self._storage)
        chosen = {**DEFAULT_LIMITS, **(self.rules or {})}
        self._items: dict[str, list[RateLimitItem]] = {
            name: [parse(part) for part in text.split(";")] for name, text in chosen.items()
        }

    def hit(self, rule: str, key: str) -> None:
        """Count one request of ``rule`` by ``key`` (an address, a player id).

        Raises:
            RateLimited: the request is over one of the rule's limits (it is not counted then).
        """
        items = self._items[rule]
        for item in items:
            if not self._limiter.test(item, rule, key):
                reset = self._limiter.get_window_stats(item, rule, key).reset_time
                wait = max(1, int(reset - time.time()) + 1)
                raise RateLimited(f"too many requests ({rule}: at most {item})", retry_after=wait)
        for item in items:
            self._limiter.hit(item, rule, key)


def limits_from_text(text: str | None) -> dict[str, str]:
    """Return rate-limit overrides from ``name=limits`` pairs separated by commas, as an operator sets
    them in ``PARLOUR_RATE_LIMITS`` (``new_player=5000/minute,new_table=1000/minute``).

    Raises:
        ValueError: an unknown rule or a limit the ``limits`` library cannot read.
    """
    rules: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in DEFAULT_LIMITS:
            raise ValueError(f"no rate limit is called {name!r}: {', '.join(DEFAULT_LIMITS)}")
        for item in value.split(";"):
            parse(item.strip())
        rules[name] = value.strip()
    return rules
