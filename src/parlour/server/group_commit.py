"""Durable moves at the rate of many live games: the store's writes grouped into shared transactions.

Every acknowledged move must be committed first, and a commit costs one disk flush (about 10 ms here
on SQLite with ``synchronous=FULL``, more on PostgreSQL); one flush per move would cap the whole server
near a hundred moves a second. The :class:`GroupCommitter` lets the first move through at once and,
while its transaction is being written, gathers the moves that arrive from other games; they all go
into the next transaction (``Store.append_moves_many``), so the flush is shared and a quiet server
adds no delay at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

Item = tuple[str, Any, int, Sequence[str]]
"""(game id, player id, index of the first move, moves)."""


class BatchStore(Protocol):
    """The store call the committer needs (``parlour.store.Store`` has it)."""

    def append_moves_many(self, batch: Sequence[Item], epochs: Mapping[str, int] | None = None) -> list[Any]:
        """Append every item in one transaction (a table's match fenced by its owner's epoch, by game
        id); return a move count or an error per item."""


class GroupCommitter:
    """Queues appends from every live game and writes them in shared transactions, in arrival order.

    ``run`` runs a blocking call off the event loop (the server's write queue).
    """

    def __init__(self, store: BatchStore, run: Callable[[Callable[[], Any]], Awaitable[Any]]) -> None:
        self.store = store
        self.run = run
        self._waiting: list[tuple[Item, int | None, asyncio.Future[int]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0
        self.appends = 0

    async def append(
        self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str], epoch: int | None = None
    ) -> int:
        """Append moves to a game's record; return once they are committed (with the new move count).
        ``epoch`` is the owner epoch of a friends' table's match.

        Raises:
            ParlourError: the store refused these moves (nothing of them was stored).
        """
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(((game_id, player_id, first_index, list(moves)), epoch, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_all())
        return await done

    async def _write_all(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            items = [item for item, _, _ in batch]
            epochs = {item[0]: epoch for item, epoch, _ in batch if epoch is not None}
            try:
                results = await self.run(
                    lambda items=items, epochs=epochs: self.store.append_moves_many(items, epochs)  # type: ignore[misc]
                )
            except Exception as error:  # the transaction itself failed: every move of it is lost
                results = [error] * len(batch)
            self.transactions += 1
            self.appends += len(batch)
            for (_, _, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if isinstance(result, BaseException):
                    done.set_exception(result)
                else:
                    done.set_result(result)
