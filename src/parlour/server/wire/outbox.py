"""One connection's outgoing messages: a bounded queue and the task that sends them, in order.

The owner of a game never waits for a socket: it puts each message into every subscriber's outbox
and goes on, so a slow or dead page cannot hold the game's lock. A page that falls
:data:`OUTBOX_SIZE` messages behind is closed (it reconnects and gets a fresh state), rather than
letting its queue grow without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import orjson

log = logging.getLogger("parlour.server")

OUTBOX_SIZE: Final = 256
"""Messages a connection may have waiting before it is closed as too slow."""

Message = Mapping[str, Any]
"""One message to a page (the ``TypedDict`` of ``parlour.server.wire.protocol`` it is)."""


class Prepared:
    """One message that goes to several pages (an event for one seat, kept in the game's log too): its
    JSON text is made once, and sent as it is to every page that needs no texts added to it.

    Made from the message (``Prepared(message)``) or from its text (``Prepared.of_text``); each side is
    made from the other when first asked for.
    """

    __slots__ = ("_message", "_text", "final")

    def __init__(
        self, message: Message | None = None, text: str | None = None, *, final: bool = False
    ) -> None:
        self._message = message
        self._text = text
        self.final = final
        """The text is exactly what the page is to be sent (its language's texts already in it)."""

    @classmethod
    def of_text(cls, text: str, *, final: bool = False) -> Prepared:
        """Return the message whose JSON text is ``text`` (``final``: to be sent exactly so)."""
        return cls(None, text, final=final)

    @property
    def message(self) -> Message:
        """The message itself."""
        if self._message is None:
            self._message = json.loads(self._text or "{}")
        return self._message

    @property
    def text(self) -> str:
        """The message's compact JSON text (non-ASCII characters as they are unless a lone surrogate,
        echoed from a page's input, makes that text unencodable: then escaped)."""
        if self._text is None:
            self._text = encode_json(self.message)
        return self._text


def encode_json(message: Message) -> str:
    """Return a message as compact JSON text that can always be sent as UTF-8.

    orjson makes the text (a tenth of the time of the standard library's encoder, and every event is
    encoded for every seat); a lone surrogate in echoed input, which orjson refuses, is sent escaped.
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"))


Item = Message | Prepared
"""What an outbox queues: a message for this page alone, or one shared with other pages."""
Sender = Callable[[Item], Awaitable[None]]
"""Sends one JSON message to one connected page."""
Closer = Callable[[int | None], Awaitable[None]]
"""Closes one page's connection with a socket close code (None: the page fell behind, it reconnects)."""


class _Last:
    """What an outbox queues after a page's last message: close the connection with ``code``."""

    __slots__ = ("code",)

    def __init__(self, code: int) -> None:
        self.code = code


class Outbox:
    """The queue of messages to one page, sent by its own task.

    ``send`` writes one message to the page; ``close`` (optional) closes the connection when the
    page falls too far behind or a send fails.
    """

    def __init__(self, send: Sender, close: Closer | None = None, size: int = OUTBOX_SIZE) -> None:
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[Item | _Last] = asyncio.Queue()  # bounded by push, at ``size``
        self._size = size
        self._task: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        """The task closing the connection (kept: a task nobody holds may be collected unfinished)."""
        self.closed = False

    def push(self, message: Item) -> bool:
        """Queue a message without waiting; return False (and close the connection) when it is full
        or already closed."""
        if self.closed:
            return False
        if self._queue.qsize() >= self._size:
            log.info("a page fell %d messages behind: closing its connection", self._size)
            self._shut()
            return False
        self._put(message)
        return True

    def end(self, message: Item | None, code: int) -> None:
        """Send a page what is queued and its last ``message`` (if any), then close its connection with
        ``code`` (nothing queued after it is sent)."""
        if self.closed:
            return
        if message is not None:
            self._put(message)
        self._put(_Last(code))
        self.closed = True

    def _put(self, item: Item | _Last) -> None:
        self._queue.put_nowait(item)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    async def flush(self) -> None:
        """Wait until every queued message has been sent (or the outbox has closed)."""
        if self._task is not None and not self.closed:
            await self._queue.join()

    async def _pump(self) -> None:
        while True:
            message = await self._queue.get()
            if isinstance(message, _Last):
                self._queue.task_done()
                if self._close is not None:
                    await self._close_quietly(self._close, message.code)
                return
            try:
                await self._send(message)
            except Exception:  # a page that went away must not stop the others
                log.debug("a page's connection failed", exc_info=True)
                self._queue.task_done()
                self._shut()
                return
            self._queue.task_done()

    def _drain(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()
            self._queue.task_done()

    def _shut(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._drain()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()  # a pump left waiting for a message that never comes is never collected
        if self._close is not None:
            self._closing = asyncio.get_running_loop().create_task(self._close_quietly(self._close, None))

    @staticmethod
    async def _close_quietly(close: Closer, code: int | None) -> None:
        with contextlib.suppress(Exception):
            await close(code)

    def close(self) -> None:
        """Close the page's connection (it reconnects and is sent a fresh state wherever it lands)."""
        self._shut()

    def stop(self) -> None:
        """Stop sending (the page has gone away); queued messages are dropped."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
        self._drain()
