"""Rate limits: how fast one address may make players and one player may make games and ask for hints.

Counted with the ``limits`` library in moving windows: in this process's memory, or, for several server
processes (``--redis-url``), in Redis, so that a client spreading its requests over the processes gets
no more than from one. Without them one client could create players and games without end (every one
a database row) or keep the solver busy.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from limits import RateLimitItem, parse, storage, strategies
from limits.aio import storage as aio_storage
from limits.aio import strategies as aio_strategies
from redis.exceptions import RedisError

from parlour.errors import ParlourError

log = logging.getLogger("parlour.server")

REDIS_PREFIX: Final = "parlour:limits"
"""Where the shared counters live in Redis."""
DEFAULT_LIMITS: Final = {
    "new_player": "60/minute;600/hour",
    "new_game": "60/minute",
    "hint": "30/minute",
    "review": "20/minute;200/hour",
    "new_table": "10/minute;60/hour",
    "play_now": "30/minute;300/hour",
    "find_table": "30/minute;300/hour",
    "chat": "5/10second;40/minute",
    "daily_new_players": "3/day",
    "passkey": "30/minute;300/hour",
    "link_code": "10/minute;50/hour",
    "puzzle": "60/minute;600/hour",
    "try_again": "120/minute;2000/hour",
}
"""Each rule's limits (``limits`` notation), by what is counted: new players per address, new games,
hints, reviews computed, new tables and Play now presses per player, table codes tried per address
(codes are short: guessing them takes many tries), chat per table seat; and players new on the day
that one address may rank at a game's daily deal (its amount only: counted in the database, decision
0060); passkey prompts and link codes tried per address (decision 0064: a live link code is 40 bits,
out of reach at 50 tries an hour); puzzle answers and tried moves per player (each an attempt kept, or
a replay and an exact solve). Generous for people, tight for a script."""
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


REDIS_TIMEOUT: Final = 0.5
"""Seconds a shared counter may take in Redis before the request is counted here instead."""
REDIS_RETRY: Final = 5.0
"""Seconds the counters stay in this process after Redis failed, before Redis is tried again."""


@dataclass
class RateLimits:
    """The server's counters; ``rules`` overrides :data:`DEFAULT_LIMITS` by name. With ``redis_url``
    the counters are kept in that Redis and shared by every process using it.

    Each limit is checked and counted in one step (``limits``' moving window is a Lua script in
    Redis), so parallel requests spread over several processes never get past a limit together.
    """

    rules: Mapping[str, str] | None = None
    redis_url: str | None = None

    def __post_init__(self) -> None:
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._shared: aio_strategies.MovingWindowRateLimiter | None = None
        self._shared_down_until = 0.0
        if self.redis_url is not None:
            shared = aio_storage.RedisStorage(
                f"async+{self.redis_url}",
                implementation="redispy",
                key_prefix=REDIS_PREFIX,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
                socket_keepalive=True,
            )
            self._shared = aio_strategies.MovingWindowRateLimiter(shared)
        chosen = {**DEFAULT_LIMITS, **(self.rules or {})}
        self._items: dict[str, list[RateLimitItem]] = {
            name: [parse(part) for part in text.split(";")] for name, text in chosen.items()
        }

    def amount(self, rule: str) -> int:
        """Return how many ``rule`` allows in its first window (``daily_new_players``: 3)."""
        return int(self._items[rule][0].amount)

    async def hit(self, rule: str, key: str) -> None:
        """Count one request of ``rule`` by ``key`` (an address, a player id).

        A request over a limit is refused without being counted (a request that a parallel one beat to
        the last place of a longer window may still count in the shorter windows checked before it).
        When Redis cannot be reached, this process counts alone for :data:`REDIS_RETRY` seconds (one
        warning per outage): the counters protect the server, they are not a record, and a page
        should not fail because of them.

        Raises:
            RateLimited: the request is over one of the rule's limits.
        """
        items = self._items[rule]
        shared = self._shared
        if shared is not None and time.monotonic() >= self._shared_down_until:
            try:
                await self._count_shared(shared, items, rule, key)
            except (RedisError, OSError, TimeoutError) as error:
                if not self._shared_down_until:
                    log.warning("rate limits: Redis cannot be reached (%s): counting in this process", error)
                self._shared_down_until = time.monotonic() + REDIS_RETRY
            else:
                if self._shared_down_until:
                    log.info("rate limits: Redis answers again: counting there")
                    self._shared_down_until = 0.0
                return
        for item in items:
            if not self._limiter.test(item, rule, key):
                raise _limited(rule, item, self._limiter.get_window_stats(item, rule, key).reset_time)
        for item in items:
            if not self._limiter.hit(item, rule, key):
                raise _limited(rule, item, self._limiter.get_window_stats(item, rule, key).reset_time)

    @staticmethod
    async def _count_shared(
        shared: aio_strategies.MovingWindowRateLimiter, items: list[RateLimitItem], rule: str, key: str
    ) -> None:
        # A request already over a limit is refused without counting it anywhere; then each window is
        # checked and counted at once in Redis (so no two processes can both take its last place).
        for item in items:
            if not await shared.test(item, rule, key):
                raise _limited(rule, item, (await shared.get_window_stats(item, rule, key)).reset_time)
        for item in items:
            if not await shared.hit(item, rule, key):
                raise _limited(rule, item, (await shared.get_window_stats(item, rule, key)).reset_time)

    async def close(self) -> None:
        """Close the connections to Redis (the server is stopping)."""
        if self._shared is not None:
            client = self._shared.storage
            bridge = getattr(client, "bridge", None)  # limits keeps the redis client in its bridge
            with contextlib.suppress(RedisError, AttributeError):
                await bridge.storage.aclose()  # type: ignore[union-attr]


def _limited(rule: str, item: RateLimitItem, reset: float) -> RateLimited:
    wait = max(1, int(reset - time.time()) + 1)
    return RateLimited(f"too many requests ({rule}: at most {item})", retry_after=wait)


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
