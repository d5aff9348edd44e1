"""The player's token cookie, given by the answer to whichever request made the player.

A player is made only by an action that needs one (decision 0042), and any endpoint may be the first
such action. Rather than trust every endpoint to remember the cookie, :class:`PlayerCookie` adds it to
the answer of any request whose handling made a player (``request.state.new_token``): a player made
without its cookie would be lost at once.
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_COOKIE: Final = "parlour_token"
COOKIE_AGE: Final = 400 * 24 * 3600
"""How long a browser keeps its cookies (400 days, the most browsers allow)."""
NEW_TOKEN: Final = "new_token"
"""The request state's key for the token of a player the request made."""


def give_token(response: Response, token: str, scheme: str) -> None:
    """Set the token cookie on ``response``: script-proof (HttpOnly), sent only to this site's pages
    and their top-level navigations (SameSite=Lax), and only over TLS when the request came over TLS."""
    response.set_cookie(
        TOKEN_COOKIE,
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=scheme in ("https", "wss"),
        path="/",
    )


class PlayerCookie:
    """ASGI middleware: the answer to a request that made a player carries that player's cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The handlers' request.state lives in this dict (Starlette keeps it in the scope).
        state = scope.setdefault("state", {})

        async def sending(message: Message) -> None:
            token = state.get(NEW_TOKEN)
            if message["type"] == "http.response.start" and token:
                carrier = Response()
                give_token(carrier, token, scope["scheme"])
                headers = MutableHeaders(scope=message)
                already = headers.getlist("set-cookie")
                for name, value in carrier.raw_headers:
                    cookie = value.decode("latin-1")
                    if name == b"set-cookie" and cookie not in already:
                        headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, sending)
