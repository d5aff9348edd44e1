"""The HTTP connection as ``parlour serve`` runs it: uvicorn's httptools protocol with the bounds a server
on the internet needs and the parser leaves to its user (issue 48):

- **a request's head is bounded**: at most :data:`MAX_HEAD_BYTES` bytes and :data:`MAX_HEADERS` header
  lines, or it is answered 431 and the connection closed, before the parser has buffered more (one 200 MB
  header used to be read whole, and answered 200);
- **a head must arrive in time**: :data:`HEAD_SECONDS` from its first byte (and from the connection's
  start), else the connection is closed (slow clients cannot hold connections open by dribbling bytes);
- **connections per address are capped**: at most :data:`CONNECTIONS_PER_ADDRESS` open at once from one
  address that is not a trusted proxy (``--forwarded-allow-ips``; behind the load balancer the cap is
  its job: ``deploy/haproxy.cfg``); a connection over the cap is answered 503 and closed.

Idle keep-alive connections are closed by uvicorn's own ``timeout_keep_alive``.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
from collections import Counter
from typing import Any, ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES: Final = 32 * 1024
"""The most bytes of a request line and its headers (browsers send 1-3 kB; HAProxy's buffer is 16 kB)."""
MAX_HEADERS: Final = 100
"""The most header lines of a request (HAProxy's own default limit is 101)."""
HEAD_SECONDS: Final = 10.0
"""Seconds a request's head may take to arrive, from its first byte (HAProxy's timeout http-request)."""
CONNECTIONS_PER_ADDRESS: Final = 256
"""Connections open at once from one address that is not a trusted proxy: a household's pages and tabs,
not a script's thousand."""

log = logging.getLogger("parlour.server")
_TERMINATOR: Final = b"\r\n\r\n"


def _refusal(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"code": code, "message": message}).encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    ).encode() + body


HEAD_TOO_LARGE: Final = _refusal(
    431, "Request Header Fields Too Large", "headers_too_large", "The request's headers are too large."
)
TOO_MANY_CONNECTIONS: Final = _refusal(
    503, "Service Unavailable", "too_many_connections", "Too many connections from your address."
)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the bounds of the module's docstring."""

    open_by_address: ClassVar[Counter[str]] = Counter()
    """Connections open now from each capped address (one event loop a process: no lock needed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._head_lines = 0
        self._tail = b""
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None

    # --- the connection ---------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        if address is not None and not _trusted(address, self.config.forwarded_allow_ips):
            if self.open_by_address[address] >= CONNECTIONS_PER_ADDRESS:
                log.warning(
                    "a connection from %s was refused: %d open from it", address, CONNECTIONS_PER_ADDRESS
                )
                transport.write(TOO_MANY_CONNECTIONS)
                transport.close()
                return
            self.open_by_address[address] += 1
            self._counted = address
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted is not None:
            self.open_by_address[self._counted] -= 1
            if self.open_by_address[self._counted] <= 0:
                del self.open_by_address[self._counted]
            self._counted = None
        self._stop_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head and not self._check_head(data):
            return
        super().data_received(data)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # The next request on this connection starts its head (its timer starts with its first byte).
        self._in_head, self._head_bytes, self._head_lines, self._tail = True, 0, 0, b""

    # --- the head's bounds ------------------------------------------------------------------------

    def _check_head(self, data: bytes) -> bool:
        """Count the head's bytes and lines in ``data`` (before the parser sees them); return False when
        the connection was refused and closed."""
        if self._head_bytes == 0 and self._head_timer is None:
            self._start_head_timer()
        seen = self._tail + data
        end = seen.find(_TERMINATOR)
        head = seen[len(self._tail) :] if end < 0 else seen[len(self._tail) : max(end + 4, len(self._tail))]
        self._head_bytes += len(head)
        self._head_lines += head.count(b"\r\n")
        if self._head_bytes > MAX_HEAD_BYTES or self._head_lines > MAX_HEADERS + 2:
            self._refuse(HEAD_TOO_LARGE)
            return False
        if end >= 0:
            self._in_head = False
            self._stop_head_timer()
        else:
            self._tail = seen[-3:]
        return True

    def _refuse(self, answer: bytes) -> None:
        self._stop_head_timer()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._in_head and self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def _trusted(address: str, allowed: list[str] | str) -> bool:
    """Return whether ``address`` is one of the trusted proxies (``--forwarded-allow-ips``: addresses,
    networks, or ``*``), whose connections carry many clients and are not capped here."""
    everyone, networks, names = _trusted_entries(allowed if isinstance(allowed, str) else tuple(allowed))
    if everyone:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address in names
    return any(ip in network for network in networks)


@functools.lru_cache(maxsize=8)
def _trusted_entries(
    allowed: str | tuple[str, ...],
) -> tuple[bool, tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...], frozenset[str]]:
    """Read the trusted proxies once (every connection asks): whether any address is, their networks
    (an address is a network of one) and the names that are no address."""
    names = [allowed] if isinstance(allowed, str) else list(allowed)
    entries = [part.strip() for name in names for part in name.split(",") if part.strip()]
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue
    return "*" in entries, tuple(networks), frozenset(entries)
