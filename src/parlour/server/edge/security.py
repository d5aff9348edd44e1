"""What keeps other sites and oversized requests out: one ASGI middleware and the CSRF helpers.

- **Cross-site requests.** A request that changes something (any method but GET, HEAD, OPTIONS) is
  refused with 403 ``cross_site`` when the browser says it comes from another site (``Sec-Fetch-Site``
  ``cross-site`` or ``same-site``) or its ``Origin`` is not this server's. A JSON endpoint (``/api/…``)
  with a body takes only ``application/json`` (415 otherwise), which a page of another site cannot send
  without the browser asking first. Forms carry a CSRF token (:func:`csrf_token`, checked by
  :func:`check_csrf`) equal to the ``parlour_csrf`` cookie. WebSockets check ``Origin`` themselves
  (:func:`same_origin`).
- **Limits.** A request body over :data:`MAX_BODY` bytes is refused with 413 before it is read whole.
- **Headers.** Every page gets a Content-Security-Policy (everything from this server, no framing),
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and ``Referrer-Policy``.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.errors import ParlourError

MAX_BODY: Final = 64 * 1024
"""The largest request body accepted, in bytes (the biggest real one, a settings form, is under 1 KB)."""
CSRF_COOKIE: Final = "parlour_csrf"
CSRF_FIELD: Final = "csrf"
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
HEADERS: Final = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
        b"connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)


class CrossSite(ParlourError):
    """A request that changes something, made by a page of another site."""

    code = "cross_site"


PAGE_SCHEMES: Final = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""The scheme of the pages that may use a request of each scheme (a socket's page is served over the
matching HTTP scheme)."""


def same_origin(headers: Mapping[str, str], scheme: str) -> bool:
    """Return whether a request's ``Origin`` (when it has one) is this server: the scheme the request
    came over (``https`` behind a proxy that says so and is trusted) and the host its ``Host`` names.

    Requests without ``Origin`` (the command line, tests, old browsers on same-site navigation) pass:
    browsers send it on every cross-site request that could change something. An ``https`` page is
    another origin than the ``http`` server of the same host and port, and is refused.
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    parts = urlsplit(origin)
    if origin == "null" or not parts.netloc or parts.scheme not in ("http", "https"):
        return False
    return parts.scheme == PAGE_SCHEMES.get(scheme, scheme) and parts.netloc.lower() == host.lower()


def cross_site_problem(method: str, headers: Mapping[str, str], scheme: str) -> str | None:
    """Return why a request over ``scheme`` must be refused as cross-site, or None when it may go on."""
    if method in SAFE_METHODS:
        return None
    fetched_from = headers.get("sec-fetch-site")
    if fetched_from in ("cross-site", "same-site"):
        return f"a {method} request from another site (Sec-Fetch-Site: {fetched_from})"
    if not same_origin(headers, scheme):
        return f"a {method} request from another origin ({headers.get('origin')!r})"
    return None


def _json_response(status: int, code: str, message: str) -> Response:
    body = json.dumps({"code": code, "message": message}).encode()
    return Response(body, status_code=status, media_type="application/json")


class Guard:
    """The ASGI middleware: cross-site refusal, the body limit and the security headers."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        problem = cross_site_problem(method, headers, scope.get("scheme", "http"))
        if problem is not None:
            await _json_response(403, "cross_site", problem)(scope, receive, send)
            return
        length = headers.get("content-length")
        too_large = f"a request body has at most {self.max_body} bytes"
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _json_response(413, "too_large", too_large)(scope, receive, send)
            return
        path: str = scope.get("path", "")
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = length not in (None, "0")
        if (
            path.startswith("/api/")
            and method not in SAFE_METHODS
            and has_body
            and content_type != "application/json"
        ):
            wrong = f"send JSON with Content-Type: application/json, not {content_type or 'nothing'!r}"
            await _json_response(415, "not_json", wrong)(scope, receive, send)
            return
        if length is None and method not in SAFE_METHODS:
            # A body without a length (chunked): read it here, up to the limit, before the app sees it.
            chunks: list[Message] = []
            size = 0
            while True:
                chunk = await receive()
                chunks.append(chunk)
                size += len(chunk.get("body", b""))
                if size > self.max_body:
                    await _json_response(413, "too_large", too_large)(scope, receive, send)
                    return
                if chunk["type"] != "http.request" or not chunk.get("more_body", False):
                    break
            if size and path.startswith("/api/") and content_type != "application/json":
                wrong = f"send JSON with Content-Type: application/json, not {content_type or 'nothing'!r}"
                await _json_response(415, "not_json", wrong)(scope, receive, send)
                return
            receive = _replay(chunks, receive)
        await self.app(scope, receive, _with_headers(send))


def _replay(chunks: list[Message], receive: Receive) -> Receive:
    """Return a ``receive`` that gives the already read messages first, then the live ones."""
    waiting = list(chunks)

    async def replaying() -> Message:
        if waiting:
            return waiting.pop(0)
        return await receive()

    return replaying


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            existing = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in HEADERS if name not in existing]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending


# --- CSRF tokens for forms --------------------------------------------------------------------------------


def csrf_token(request: Request) -> str:
    """Return the request's CSRF token: the ``parlour_csrf`` cookie, or a new one (which
    :func:`set_csrf_cookie` then gives the browser)."""
    found = request.cookies.get(CSRF_COOKIE)
    if found and len(found) == 43 and found.isascii():
        return found
    made: str | None = getattr(request.state, "new_csrf", None)
    if made is None:
        made = secrets.token_urlsafe(32)
        request.state.new_csrf = made
    return made


def set_csrf_cookie(request: Request, response: Response) -> None:
    """Give the browser the CSRF token made for this request, if one was made."""
    made = getattr(request.state, "new_csrf", None)
    if made:
        secure = request.url.scheme == "https"
        response.set_cookie(CSRF_COOKIE, made, httponly=True, samesite="strict", secure=secure, path="/")


def check_csrf(request: Request, form: Mapping[str, Any]) -> None:
    """Check a form's CSRF field against the cookie.

    Raises:
        CrossSite: the field is missing or differs from the cookie.
    """
    cookie = request.cookies.get(CSRF_COOKIE) or ""
    sent = form.get(CSRF_FIELD)
    if not cookie or not isinstance(sent, str) or not hmac.compare_digest(cookie.encode(), sent.encode()):
        raise CrossSite("this form was not sent from a Parlour page (its CSRF token is missing or wrong)")
