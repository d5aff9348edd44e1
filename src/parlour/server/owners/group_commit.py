"""Durable moves at the rate of many live games: the store's writes grouped into shared transactions.

Every acknowledged move must be committed first, and a commit costs one disk flush (about 10 ms here
on SQLite with ``synchronous=FULL``, more on PostgreSQL); one flush per move would cap the whole server
near a hundred moves a second. The :class:`GroupCommitter` lets the first move through at once and,
while its transaction is being written, gathers the moves that arrive from other games; they all go
into the next transaction (``Store.append_moves_many``), so the flush is shared and a quiet server
adds no delay at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from parlour.server.owners.batching import Batcher

Item = tuple[str, Any, int, Sequence[str]]
"""(game id, player id, index of the first move, moves)."""


class BatchStore(Protocol):
    """The store call the committer needs (``parlour.store.Store`` has it)."""

    def append_moves_many(self, batch: Sequence[Item], epochs: Mapping[str, int] | None = None) -> list[Any]:
        """Append every item in one transaction (a table's match fenced by its owner's epoch, by game
        id); return a move count or an error per item."""


AtOnce = Callable[[list[Item], dict[str, int]], Awaitable[list[Any] | None]]
"""Writes a batch with one statement from the event loop and returns the move counts, or None when the
batch must take the store's long way (``Persistence.append_at_once``)."""


class GroupCommitter:
    """Queues appends from every live game and writes them in shared transactions, in arrival order.

    ``run`` runs a blocking call off the event loop (the server's write queue); ``at_once``, where the
    database allows it, writes a batch of the common case without leaving the event loop.
    """

    def __init__(
        self,
        store: BatchStore,
        run: Callable[[Callable[[], Any]], Awaitable[Any]],
        at_once: AtOnce | None = None,
    ) -> None:
        self.store = store
        self.run = run
        self.at_once = at_once
        self._batcher: Batcher[tuple[Item, int | None], int] = Batcher(self._write)

    @property
    def transactions(self) -> int:
        """Transactions written so far."""
        return self._batcher.batches

    @property
    def appends(self) -> int:
        """Appends written so far."""
        return self._batcher.items

    async def append(
        self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str], epoch: int | None = None
    ) -> int:
        """Append moves to a game's record; return once they are committed (with the new move count).
        ``epoch`` is the owner epoch of a friends' table's match.

        Raises:
            ParlourError: the store refused these moves (nothing of them was stored).
        """
        return await self._batcher.submit(((game_id, player_id, first_index, list(moves)), epoch))

    async def _write(self, batch: list[tuple[Item, int | None]]) -> list[Any]:
        """Write one transaction: a move count or an error per append (raises if the transaction failed)."""
        items = [item for item, _ in batch]
        epochs = {item[0]: epoch for item, epoch in batch if epoch is not None}
        if self.at_once is not None:
            counts = await self.at_once(items, epochs)
            if counts is not None:
                return counts
        results: list[Any] = await self.run(lambda: self.store.append_moves_many(items, epochs))
        return results
