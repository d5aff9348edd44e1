"""The cluster's pub/sub plumbing: a subscribed channel's messages handled one at a time, in order, and
PUBLISHes gathered into one Redis round trip per batch."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from parlour.server.owners.batching import Batcher

log = logging.getLogger("parlour.server")


class Channel:
    """Messages of one subscribed channel, handled one at a time in order (channels run side by side)."""

    def __init__(self, handler: Callable[[str], Awaitable[None]]) -> None:
        self.handler = handler
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.handler(message)
            except Exception:  # one bad message must not stop the channel
                log.warning("a cluster message could not be handled", exc_info=True)


class Publisher:
    """PUBLISHes gathered into one Redis round trip (a pipeline) per batch: an event of a table goes to
    each of its relayed pages, and one pipeline carries them all, in order, instead of one round trip
    per page. Each ``publish`` returns once its batch was sent, so a page's outbox still waits for its
    messages to leave."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._batcher: Batcher[tuple[str, str], int] = Batcher(self._send)

    async def publish(self, channel: str, text: str) -> int:
        """Publish ``text`` on ``channel``; return how many listened.

        Raises:
            RedisError: Redis did not take the batch.
        """
        return await self._batcher.submit((channel, text))

    async def _send(self, batch: list[tuple[str, str]]) -> list[int]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for channel, text in batch:
                pipe.publish(channel, text)
            heard = await pipe.execute()
        return [int(listeners) for listeners in heard]
