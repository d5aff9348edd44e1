"""Deadlines for store calls on a database over the network, enforced from outside the waiting thread.

A PostgreSQL that stops answering while its connections stay open (a stalled server, a stuck proxy, a
network that drops packets without resetting anything) leaves a thread blocked in the driver's read
for as long as the stall lasts: libpq has no timeout on a query, a server-side ``statement_timeout``
cannot help when the server's answer never arrives, and TCP keepalives are answered by whatever holds
the connection open. So each store call a server makes runs :meth:`Deadlines.within` a time limit:
the connections the calling thread checks out are known (pool events), and a watchdog thread shuts the
socket of any connection still in use by a call past its deadline. The driver's read then fails at
once, SQLAlchemy throws the connection away, and the call raises ``StoreUnavailable`` as for any lost
connection (the transaction never committed, or committed without its answer arriving: the server's
record check handles both, see ``parlour.server.owners.live``).

Connecting is bounded by libpq's ``connect_timeout``; a call past its deadline opens no new connection.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, Final

from sqlalchemy import Engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.exc import TimeoutError as PoolTimeout

log = logging.getLogger("parlour.store")

TICK: Final = 0.05
"""How often the watchdog looks at the calls in progress, in seconds."""


class Deadlines:
    """The deadline of the store call running in each thread, the connections each thread holds, and
    the watchdog that cuts a connection held past its thread's deadline."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deadlines: dict[int, float] = {}
        self._connections: dict[int, list[Any]] = {}
        self._watchdog: threading.Thread | None = None
        self._watching = False
        self.cut = 0
        """How many connections the watchdog has cut (for tests and metrics)."""

    def watch(self, engine: Engine) -> None:
        """Follow ``engine``'s connections: which thread holds which, and a ping when one is taken
        from the pool (under the caller's deadline, unlike SQLAlchemy's own pre-ping)."""
        self._watching = True
        event.listen(engine, "checkout", self._checked_out)
        event.listen(engine, "checkin", self._checked_in)
        event.listen(engine, "do_connect", self._connecting)

    @contextlib.contextmanager
    def within(self, seconds: float) -> Iterator[None]:
        """Run the block with a deadline ``seconds`` from now for this thread's database calls (no
        deadline, and no watchdog thread, for an engine not watched: SQLite's local file)."""
        if not self._watching:
            yield
            return
        me = threading.get_ident()
        with self._lock:
            self._deadlines[me] = time.monotonic() + seconds
            if self._watchdog is None or not self._watchdog.is_alive():
                self._watchdog = threading.Thread(
                    target=self._watch, name="parlour-db-deadlines", daemon=True
                )
                self._watchdog.start()
        try:
            yield
        finally:
            with self._lock:
                self._deadlines.pop(me, None)

    def _overdue(self) -> bool:
        deadline = self._deadlines.get(threading.get_ident())
        return deadline is not None and time.monotonic() >= deadline

    def _connecting(self, *_args: Any) -> None:
        if self._overdue():
            raise PoolTimeout("the database did not answer in time: no new connection is opened")

    def _checked_out(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        with self._lock:
            self._connections.setdefault(threading.get_ident(), []).append(dbapi_connection)
        if self._overdue():
            raise PoolTimeout("the database did not answer in time")
        try:  # the pool's connection may have died since it was last used: find out now
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute("SELECT 1")
            finally:
                cursor.close()
        except Exception as error:
            self._forget(dbapi_connection)
            if self._overdue():
                raise PoolTimeout("the database did not answer in time") from error
            raise DisconnectionError(f"a pooled connection was lost: {error}") from error

    def _checked_in(self, dbapi_connection: Any, _record: Any) -> None:
        self._forget(dbapi_connection)

    def _forget(self, dbapi_connection: Any) -> None:
        with self._lock:
            for held in self._connections.values():
                if dbapi_connection in held:
                    held.remove(dbapi_connection)

    def _watch(self) -> None:
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            with self._lock:
                late = [
                    connection
                    for thread, deadline in self._deadlines.items()
                    if deadline <= now
                    for connection in self._connections.get(thread, ())
                ]
                for held in self._connections.values():
                    held[:] = [connection for connection in held if connection not in late]
                self._connections = {thread: held for thread, held in self._connections.items() if held}
            for connection in late:
                self.cut += 1
                log.warning("the database did not answer in time: its connection is cut")
                shut_socket(connection)


def shut_socket(dbapi_connection: Any) -> None:
    """Shut a driver connection's socket, so that a read blocked on it fails at once (the driver and
    SQLAlchemy then see a lost connection). The descriptor itself stays the driver's to close."""
    fileno = _socket_of(dbapi_connection)
    if fileno is None:
        return
    with contextlib.suppress(OSError):
        duplicate = socket.socket(fileno=os.dup(fileno))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()


def _socket_of(dbapi_connection: Any) -> int | None:
    """The socket descriptor of a psycopg connection (None for a driver without one: SQLite)."""
    pgconn = getattr(dbapi_connection, "pgconn", None)
    if pgconn is None:
        return None
    try:
        fileno = int(pgconn.socket)
    except Exception:  # a connection already closed has no socket
        return None
    return fileno if fileno >= 0 else None
