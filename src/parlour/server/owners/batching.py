"""One batch in flight, the next one gathering: what a slow shared step (a disk flush, a network round
trip) costs once for everything that arrived while the previous one was on its way.

The first item goes at once; items submitted while its batch is being sent wait for the next batch,
sent as soon as that one is done. So a quiet server adds no delay, and a busy one pays the step once a
batch instead of once an item. Used by the group commit of moves and the cluster's publishes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batcher(Generic[T, R]):
    """Sends submitted items in batches through ``send``, which returns a result or an exception per
    item, in order (or raises: then every item of the batch fails with that exception)."""

    def __init__(self, send: Callable[[list[T]], Awaitable[Sequence[R | BaseException]]]) -> None:
        self._send = send
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._sending: asyncio.Task[None] | None = None
        self.batches = 0
        """Batches sent so far."""
        self.items = 0
        """Items sent so far."""

    async def submit(self, item: T) -> R:
        """Send ``item`` with the next batch; return its result once the batch is sent.

        Raises:
            Exception: the item's own error, or the batch's.
        """
        done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, done))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send_all())
        return await done

    async def _send_all(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            results: Sequence[R | BaseException]
            try:
                results = await self._send([item for item, _ in batch])
            except Exception as error:  # the batch itself failed: so did each of its items
                results = [error] * len(batch)
            self.batches += 1
            self.items += len(batch)
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():  # its caller stopped waiting
                    continue
                if isinstance(result, BaseException):
                    done.set_exception(result)
                    done.add_done_callback(lambda future: future.exception())  # seen, if unawaited
                else:
                    done.set_result(result)
