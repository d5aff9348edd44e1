"""The server's logs: the standard ``logging`` module, as text or one JSON object a line.

``parlour serve --log-level info --log-format text|json`` sets them up (:func:`configure`). Parlour's
loggers are ``parlour.server`` (what happens: starts, outages, drains) and ``parlour.access`` (one line a
request and one a socket session, see :class:`AccessLog`). No line carries a token, a cookie, a recovery
code, a query string or a password of a database URL: access lines name routes by their template, and a
filter on the handler blanks anything of those shapes that a message might still hold (an error's text,
say).
"""

from __future__ import annotations

import hashlib
import logging
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any, Final

from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.server.edge.metrics import Metrics

LEVELS: Final = ("debug", "info", "warning", "error")
FORMATS: Final = ("text", "json")
TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s %(message)s"
SECRETS: Final = (
    # a cookie or header value of a token (ours, or any ``…token=``)
    (re.compile(r"(?i)(token[\"']?\s*[=:]\s*[\"']?)[A-Za-z0-9_\-]{8,}"), r"\1[hidden]"),
    # a recovery code: four groups of five of Crockford's letters and digits
    (re.compile(r"\b[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3}\b"), "[hidden]"),
    # the password of a URL (postgresql://user:password@host)
    (re.compile(r"(://[^:/@\s]+:)[^@\s]+@"), r"\1[hidden]@"),
    # a query string, which may carry a deal code or a table code
    (re.compile(r"(/[^\s?\"']*)\?[^\s\"']+"), r"\1?[hidden]"),
    # a secret deal's code (generator 2: its seed gives every hidden card)
    (re.compile(r"(?i)\b(T[HP]2-(?:[EC]-)?)[A-Z2-7]{27}\b"), r"\1[hidden]"),
)

PROBES: Final = frozenset({"/healthz", "/readyz"})
"""Routes a load balancer or an orchestrator asks every few seconds: logged at debug when answered well."""
STATIC_PREFIX: Final = "/static"
"""The mount of the static files: their lines name the file."""
START_LOGGER: Final = "parlour.server.start"
access = logging.getLogger("parlour.access")


class Redact(logging.Filter):
    """Blank tokens, recovery codes, URL passwords, query strings and secret deal codes in every
    record's text."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        cleaned = text
        for pattern, replacement in SECRETS:
            cleaned = pattern.sub(replacement, cleaned)
        if cleaned != text:
            record.msg, record.args = cleaned, None
        return True


def table_tag(table_id: str) -> str:
    """Return how an info line names a friends' table: the first 10 hex digits of SHA-256 of its id
    (the id opens the table's socket, so it stays out of the logs; the tag still matches the lines of
    one table, here and on other processes)."""
    return hashlib.sha256(table_id.encode()).hexdigest()[:10]


def iso_time(record: logging.LogRecord) -> str:
    """Return when a record was made in ISO 8601 with its zone, UTC, to the millisecond
    (``2026-12-04T21:43:00.123+00:00``): what log collectors read without guessing."""
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class IsoFormatter(logging.Formatter):
    """The text log's lines, their time in ISO 8601 with the zone."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return iso_time(record)


class IsoJsonFormatter(JsonFormatter):
    """The JSON log's objects, their ``time`` in ISO 8601 with the zone."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return iso_time(record)


def configure(level: str = "info", form: str = "text") -> logging.Handler:
    """Send Parlour's logs (and the warnings of the libraries it runs on) to standard error at
    ``level``, as ``form`` (``text``: time, level, logger, message; ``json``: one object a line with
    the same fields and each line's own, such as a request's ``route`` and ``status``); return the
    handler (a test removes it again).

    Raises:
        ValueError: an unknown level or format.
    """
    if level not in LEVELS or form not in FORMATS:
        raise ValueError(f"log level {level!r} or format {form!r} is not one of {LEVELS} / {FORMATS}")
    handler = logging.StreamHandler(sys.stderr)
    if form == "json":
        handler.setFormatter(
            IsoJsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            )
        )
    else:
        handler.setFormatter(IsoFormatter(TEXT_FORMAT))
    handler.addFilter(Redact())
    parlour = logging.getLogger("parlour")
    parlour.handlers = [handler]
    parlour.setLevel(level.upper())
    parlour.propagate = False
    # Where the server listens (and its metrics) is said at every level: an operator needs it.
    logging.getLogger(START_LOGGER).setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "sqlalchemy", "redis", "alembic"):
        library = logging.getLogger(name)
        library.handlers = [handler]
        library.setLevel(max(logging.WARNING, parlour.level))
        library.propagate = False
    return handler


def route_of(scope: Scope) -> str:
    """The template of the route that served ``scope``: a route's path, a mount's prefix (the static
    files), or ``unmatched`` when nothing did."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str) and path:
        return path
    # A mount sets no route; what its match added to the root path is its prefix. The root path a proxy
    # may give (app_root_path) is not part of it.
    root, app_root = scope.get("root_path", ""), scope.get("app_root_path", "")
    if isinstance(root, str) and isinstance(app_root, str) and root.startswith(app_root) and root != app_root:
        return root[len(app_root) :]
    return "unmatched"


class AccessLog:
    """ASGI middleware: one log line and the metrics of each request and each socket session.

    A request's line: method, route, status, milliseconds and the client's address (as the load balancer
    forwarded it). A socket's line, when it ends: route, close code, seconds open and frames each way.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._request(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _request(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500  # what the server sends when the app raised before answering

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - started
            route, method = route_of(scope), scope["method"]
            self.metrics.requests.labels(route, method, str(status)).inc()
            self.metrics.request_seconds.labels(route).observe(seconds)
            # A static file is named in the log (its path is no secret), not in the metrics' labels.
            shown = scope.get("path", route) if route == STATIC_PREFIX else route
            fields = {
                "event": "request", "method": method, "route": shown, "status": status,
                "ms": round(seconds * 1000, 1), "client": _client(scope),
            }  # fmt: skip
            # A load balancer's probes, answered well, are most of an idle process's lines: debug only.
            level = logging.DEBUG if route in PROBES and status < 400 else logging.INFO
            access.log(level, "%s %s %d %.1f ms %s", method, shown, status, fields["ms"], fields["client"],
                       extra=fields)  # fmt: skip

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        frames_in = frames_out = 0
        close: int | None = None
        opened = False

        async def receiving() -> Message:
            nonlocal frames_in, close
            message = await receive()
            if message["type"] == "websocket.receive":
                frames_in += 1
            elif message["type"] == "websocket.disconnect" and close is None:
                close = message.get("code", 1005)
            return message

        async def sending(message: Message) -> None:
            nonlocal frames_out, close, opened
            kind = message["type"]
            if kind == "websocket.accept" and not opened:
                opened = True
                self.metrics.sockets_open.labels(route_of(scope)).inc()
            elif kind == "websocket.send":
                frames_out += 1
            elif kind == "websocket.close" and close is None:
                close = message.get("code", 1000)
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            route = route_of(scope)  # the router set it before the socket was accepted
            if opened:
                self.metrics.sockets_open.labels(route).dec()
            code = close if close is not None else (1006 if opened else 403)
            self.metrics.sockets.labels(route, str(code)).inc()
            fields: dict[str, Any] = {
                "event": "socket", "route": route, "close": code,
                "seconds": round(time.monotonic() - started, 1), "frames_in": frames_in,
                "frames_out": frames_out, "client": _client(scope),
            }  # fmt: skip
            access.info(
                "WS %s closed %d after %.1f s, %d frames in, %d out %s", route, code, fields["seconds"],
                frames_in, frames_out, fields["client"], extra=fields,
            )  # fmt: skip


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "-"
