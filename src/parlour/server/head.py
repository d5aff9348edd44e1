"""HEAD answered wherever GET is: the same status and headers, no body.

HTTP asks every server that answers GET on a resource to answer HEAD on it too (RFC 9110, 9.3.2), and
load balancers, uptime checks and link checkers send HEAD. FastAPI's routes take only the methods they
declare, so without this a HEAD of any page, ``/healthz`` included, is refused with 405.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """ASGI middleware: a HEAD request is handled as a GET and its answer sent without the body.

    The headers, ``Content-Length`` included, are those of the GET, as HTTP asks. The method is changed
    in the request's own scope, so that what reads the scope afterwards (the route that matched) sees
    the same request; the access log notes the method before.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        scope["method"] = "GET"

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a part of the body: nothing is sent until its end
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app(scope, receive, headers_only)
