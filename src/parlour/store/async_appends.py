"""The group commit's one statement on the server's event loop (PostgreSQL, decision 0054).

A batch of moves written through the store's pool runs in a worker thread: the hand-over to the thread
and back, and the two threads taking turns with the interpreter, cost more processor time under load
than the statement itself. So the server sends the one statement (``append_statements.APPEND_AT_ONCE``)
from its event loop, on a connection of its own in autocommit mode. Anything else (a batch that is not
of the common case, or one the database disagreed with) still takes the store's long way in a thread.

The deadline is kept as the store's watchdog keeps it: a statement that has not answered in time has
its connection's socket shut, so the read fails at once, and the connection is made again for the
next batch. A connection found lost (a PostgreSQL restarted since the last batch) is made again and the
statement sent once more, which is safe (see ``GameRecordsStore.plan_appends``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import psycopg
from sqlalchemy.engine import URL

from parlour.store.append_statements import append_at_once
from parlour.store.database import libpq_conninfo
from parlour.store.deadline import shut_socket
from parlour.store.errors import StoreUnavailable, unavailable
from parlour.store.game_records import AppendPlan

log = logging.getLogger("parlour.store")


class AsyncAppends:
    """Sends planned batches of moves from the event loop, one at a time (the group commit has one
    batch in flight), on one connection made when first needed."""

    def __init__(self, url: URL) -> None:
        self.url = url
        self._conninfo, self._arguments = libpq_conninfo(url)
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self.cut = 0
        """How many statements had their connection cut at their deadline (for tests)."""

    async def write(self, plan: AppendPlan, seconds: float) -> bool:
        """Send the plan's statement and return whether it wrote (False: the database disagreed with
        the plan and nothing was written).

        Raises:
            StoreUnavailable: the database failed, or did not answer within ``seconds``.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        for attempt in (1, 2):
            connection = await self._connected(deadline - loop.time())
            late = loop.call_at(deadline, self._cut, connection)
            try:
                return await append_at_once(connection, plan.parameters)
            except psycopg.Error as error:
                lost = connection.closed or connection.broken
                if lost:
                    await self._drop()
                if loop.time() >= deadline:
                    raise StoreUnavailable("the database did not answer in time") from error
                if lost and attempt == 1:
                    continue
                raise unavailable(self.url, error) from error
            finally:
                late.cancel()
        raise AssertionError("unreachable: the second attempt returns or raises")

    async def close(self) -> None:
        """Close the connection (the server is stopping)."""
        await self._drop()

    async def _connected(self, seconds: float) -> psycopg.AsyncConnection[Any]:
        """Return the connection, made now if there is none (bounded by libpq's connect timeout and by
        ``seconds``).

        Raises:
            StoreUnavailable: it cannot be made.
        """
        if self._connection is not None and not self._connection.closed:
            return self._connection
        try:
            async with asyncio.timeout(max(seconds, 0)):
                self._connection = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, **self._arguments
                )
        except TimeoutError as error:
            raise StoreUnavailable("the database did not answer in time: no new connection") from error
        except psycopg.Error as error:
            raise unavailable(self.url, error) from error
        return self._connection

    def _cut(self, connection: psycopg.AsyncConnection[Any]) -> None:
        """Shut the socket of a statement past its deadline: its read fails at once."""
        self.cut += 1
        log.warning("the database did not answer in time: its connection is cut")
        shut_socket(connection)

    async def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await connection.close()
