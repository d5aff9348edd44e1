"""Persistence of the live games and tables: every store call the server makes runs in a worker thread
within a deadline, writes are queued on SQLite, moves are committed in groups across games, and a write
the database failed is tried again for about two seconds before the page is told. The live games'
recorder and the tables' keeper (``parlour.server.owners.live.Recorder``,
``parlour.server.owners.tables.TableKeeper``) are this.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, Final, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition, LiveGame, RecordSpec, SeatView
from parlour.games.ratings import Skill
from parlour.games.registry import Registry
from parlour.games.tables import Claim, FriendsTable, RatedRound, TableRecord
from parlour.server.cluster.node import Cluster
from parlour.server.edge.logs import table_tag
from parlour.server.edge.metrics import Metrics
from parlour.server.owners.group_commit import GroupCommitter, Item
from parlour.server.owners.tables import Tables
from parlour.store.async_appends import AsyncAppends
from parlour.store.errors import StoreUnavailable
from parlour.store.interface import GameStore
from parlour.store.ratings import RoundSeat

RETRY_PAUSES: Final = (0.1, 0.3, 0.6, 1.0)
"""Pauses between the tries of a write the database failed (2 s in all before the page is told)."""
STORE_SECONDS: Final = 2.5
"""The longest one store call may wait for a database that does not answer (a stalled PostgreSQL):
then it fails, and the page is told, instead of waiting for the stall to end."""
RETRY_SECONDS: Final = 2.0
"""A failed write is tried again only while this much time has not passed since its first try."""
REQUEST_SECONDS: Final = 3.0
"""The most time all the store calls of one HTTP request may spend waiting on the database together: a
page that makes several calls to a stalled database is answered within it, not after each call's own
deadline in turn. (Time the request spends on other work, such as computing a review, does not count.)"""

_request_spent: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "request_spent", default=None
)


class RequestBudget:
    """ASGI middleware: give each HTTP request :data:`REQUEST_SECONDS` of store calls in all (a socket's
    session has none: each of its actions has its own call deadlines)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = _request_spent.set([0.0])
        try:
            await self.app(scope, receive, send)
        finally:
            _request_spent.reset(token)


def call_seconds() -> float:
    """Return how long the next store call may take: :data:`STORE_SECONDS`, or what is left of the
    request's budget when that is less.

    Raises:
        StoreUnavailable: the request's budget is spent (its earlier calls waited on the database).
    """
    spent = _request_spent.get()
    if spent is None:
        return STORE_SECONDS
    left = REQUEST_SECONDS - spent[0]
    if left <= 0.05:
        raise StoreUnavailable("the database did not answer within the request's time")
    return min(STORE_SECONDS, left)


@contextlib.contextmanager
def _counted() -> Iterator[None]:
    """Add the time of a store call to its request's budget (none outside a request)."""
    spent = _request_spent.get()
    started = time.monotonic()
    try:
        yield
    finally:
        if spent is not None:
            spent[0] += time.monotonic() - started


log = logging.getLogger("parlour.server")

T = TypeVar("T")


class Persistence:
    """The store as the server uses it (a part of :class:`~parlour.server.context.Parlour`, which holds
    the store, the games, the metrics, the cluster and the tables)."""

    store: GameStore
    games: Registry
    metrics: Metrics
    cluster: Cluster | None
    tables: Tables
    committer: GroupCommitter
    appends: AsyncAppends | None
    _writing: asyncio.Lock

    async def _retried(self, write: Callable[[], Awaitable[T]]) -> T:
        """Run a write, retrying a database failure with growing pauses (:data:`RETRY_PAUSES`, about
        2 s in all), so a short outage only delays it; a longer one raises.

        Raises:
            StoreUnavailable: the database still failed after the retries (nothing was stored).
        """
        started = time.monotonic()
        for pause in (*RETRY_PAUSES, None):
            try:
                return await write()
            except StoreUnavailable:
                # A database that failed at once may be back in a moment; one that made the call wait
                # out its deadline is stalled, and the page is better told now.
                if pause is None or time.monotonic() - started + pause > RETRY_SECONDS:
                    raise
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def append(
        self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str], epoch: int | None = None
    ) -> object:
        """Commit moves to a game's record, grouped with other games' moves in shared transactions
        (retried as :meth:`_retried` says); ``epoch`` fences a friends' table's match to its owner.

        Raises:
            StoreUnavailable: the database still failed after the retries (nothing was stored).
            ParlourError: the store refused the moves (``TableMoved``: another process owns the table).
        """
        return await self._retried(
            lambda: self.committer.append(game_id, player_id, first_index, moves, epoch)
        )

    async def append_at_once(self, items: list[Item], epochs: dict[str, int]) -> list[Any] | None:
        """Write a batch of the group commit with one statement from the event loop, where the
        database allows it and the batch is of the common case (``Store.plan_appends``); return the
        move counts, or None when the batch takes the store's long way in a thread.

        Raises:
            StoreUnavailable: the database failed, or did not answer within :data:`STORE_SECONDS`.
        """
        if self.appends is None:
            return None
        plan = self.store.plan_appends(items, epochs)
        if plan is None:
            return None
        with self._measured_write():
            written = await self.appends.write(plan, STORE_SECONDS)
        if not written:
            return None
        self.store.appended(plan)
        return list(plan.results)

    async def finish(self, game_id: str, player_id: Any) -> object:
        """Finish a game's record (the store replays it) and return the outcome (retried like appends).

        Raises:
            StoreUnavailable: the database still failed after the retries.
        """
        return await self._retried(lambda: self.write(self.store.finish_game, game_id, player_id))

    # --- friends' tables (``parlour.server.owners.tables``) -----------------------------------------

    async def record_match(self, host: int, definition: GameDefinition, spec: RecordSpec, epoch: int) -> str:
        """Store the record of a match dealt at a friends' table by its owner of ``epoch`` and return
        its id (retried).

        Raises:
            StoreUnavailable: the database still failed after the retries.
            TableMoved: another process owns the table now.
        """
        return await self._retried(lambda: self.write(self.store.record_game, host, definition, spec, epoch))

    async def save_table(self, record: TableRecord) -> None:
        """Keep a table's seats, settings, phase and current match (retried).

        Raises:
            StoreUnavailable: the database still failed after the retries.
        """
        await self._retried(lambda: self.write(self.store.save_table, record))

    async def pending_claims(self, table_id: str) -> list[Claim]:
        """Return the seat claims of a public table its owner has not honoured yet.

        Raises:
            StoreUnavailable: the database failed.
        """
        return await self.call(self.store.pending_claims, table_id)

    async def record_round(
        self, definition: GameDefinition, game_id: str, rated: RatedRound
    ) -> dict[int, Skill]:
        """Rate one round of a rated table and keep it (retried; a round kept already is not counted
        twice); return each person's rating after it.

        Raises:
            StoreUnavailable: the database still failed after the retries.
        """
        seated = definition.seated
        computers = dict(seated.computer_ratings) if seated is not None else {}
        order = [RoundSeat(player, computer) for player, computer in rated.order]
        return await self._retried(
            lambda: self.write(
                self.store.record_round, definition.name, game_id, rated.round, order, computers
            )
        )

    async def load_table(self, table_id: str) -> FriendsTable | None:
        """Take a friends' table over for this process and rebuild it from the store: its row (its
        owner epoch raised, so that an earlier owner's writes are refused from now on), and its match
        by replay (None for no such table, or one whose match does not replay).

        Raises:
            StoreUnavailable: the database failed.
        """
        try:
            record = await self.write(self.store.claim_table, table_id)
        except StoreUnavailable:
            raise
        except ParlourError:
            return None
        definition = self.games.find(record.game)
        if definition is None or definition.seated is None:
            log.warning("table %s: its game %r is not played at tables here", table_id, record.game)
            return None
        try:
            match = None
            if record.game_id is not None:
                match = await self.call(self.store.game_record, record.game_id, record.host)
            restored = FriendsTable.restore(definition, record, match)
            # An operator reads here where a table went after its process stopped or died (epoch 1 is a
            # table's first owner; a higher one took it over).
            log.info(
                "table %s: this process owns it now (owner epoch %d), restored with %d moves",
                table_tag(table_id), record.epoch, len(match.moves) if match is not None else 0,
            )  # fmt: skip
            return restored
        except StoreUnavailable:
            raise
        except ParlourError:
            log.warning("table %s: it could not be restored", table_id, exc_info=True)
            return None

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table another process has taken over: its pages here close and reconnect, and
        those relayed from other processes are told it moved."""
        if self.cluster is not None:
            await self.cluster.let_go(table_id)
            return
        owner = self.tables.drop(table_id)
        if owner is not None:
            owner.close_pages()

    async def reload(self, game_id: str, player_id: Any) -> tuple[LiveGame[SeatView], int] | None:
        """Rebuild a live game from its record; return it and its stored move count, None when the
        record cannot be read or replayed now."""
        try:
            record = await self.call(self.store.game_record, game_id, player_id)
        except ParlourError:
            return None
        definition = self.games.find(record.game)
        if definition is None:
            return None
        try:
            return definition.restore(record), len(record.moves)
        except ValueError:
            log.warning("game %s could not be rebuilt from its record", game_id, exc_info=True)
            return None

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a (blocking) store call in a worker thread, within :data:`STORE_SECONDS`, and return its
        result.

        Raises:
            StoreUnavailable: the database failed, or did not answer in time.
        """

        seconds = call_seconds()

        def bounded() -> T:
            with self.store.within(seconds):
                return function(*args, **kwargs)

        with _counted():
            return await run_in_threadpool(bounded)

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call that writes, in a worker thread, and return its result.

        SQLite has one writer at a time, and a writer that finds the database locked sleeps and polls
        with growing pauses (up to 100 ms); so on SQLite the server queues its writes itself, first
        come first served, and SQLite never has to make one wait.
        """
        with self._measured_write():
            if self.store.backend != "sqlite":
                return await self.call(function, *args, **kwargs)
            async with self._writing:
                return await self.call(function, *args, **kwargs)

    @contextlib.contextmanager
    def _measured_write(self) -> Iterator[None]:
        """Time a write for the metrics, and count it as failed when the database failed."""
        started = time.perf_counter()
        try:
            yield
        except StoreUnavailable:
            self.metrics.write_failures.inc()
            raise
        finally:
            self.metrics.write_seconds.observe(time.perf_counter() - started)
