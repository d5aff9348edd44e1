"""HEAD answered wherever GET is: the same status and headers, no body.

HTTP asks every server that answers GET on a resource to answer HEAD on it too (RFC 9110, 9.3.2), and
load balancers, uptime checks and link checkers send HEAD. FastAPI's routes take only the methods they
declare, so without this a HEAD of any page, ``/healthz`` included, is refused with 405.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MATCHED: Final = ("route", "root_path", "app_root_path", "endpoint", "path_params")
"""What routing writes into a request's scope (the access log reads the route and the root paths)."""


class HeadAsGet:
    """ASGI middleware: a HEAD request is handled as a GET and its answer sent without the body.

    The headers, ``Content-Length`` included, are those of the GET, as HTTP asks. The app gets a copy of
    the scope that says GET; the server's own scope keeps HEAD (it checks the body against the length
    by it), and gets back what routing matched, as it would have without this.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        as_get = {**scope, "method": "GET"}

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a part of the body: nothing is sent until its end
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        try:
            await self.app(as_get, receive, headers_only)
        finally:
            scope.update({key: as_get[key] for key in MATCHED if key in as_get})
