"""What every way of signing a browser in does (a passkey, a link code, a recovery code): give the new
token's cookie, and offer to bring in the history of the player the browser had before (decision 0064).
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import Request
from starlette.responses import Response

from parlour.server.edge.browser_names import browser_name
from parlour.server.edge.player_cookie import TOKEN_COOKIE, give_token
from parlour.server.pages.requests import known_player, parlour_of
from parlour.store.types import Player

PREVIOUS_COOKIE: Final = "parlour_previous"
"""The token of the player a browser had before it signed in as another: kept an hour, HttpOnly, so
that the player page can offer to bring that history in (both tokens prove both players)."""
PREVIOUS_AGE: Final = 3600


def player_json(player: Player) -> dict[str, Any]:
    """Return a player as the API shows them: ``{"id", "name"}``."""
    return {"id": player.id, "name": player.name}


async def merge_candidate(request: Request, new_player_id: int) -> str | None:
    """Return the token of the player this browser had before signing in as ``new_player_id``, when
    that is another player who has played (something to bring in); None otherwise."""
    before = await known_player(request)
    token = request.cookies.get(TOKEN_COOKIE)
    if before is None or token is None or before.id == new_player_id:
        return None
    parlour = parlour_of(request)
    played = await parlour.call(parlour.store.finished_games, before.id, 1)
    open_games = await parlour.call(parlour.store.open_games, before.id)
    return token if played or open_games else None


def sign_in_browser(request: Request, response: Response, token: str, previous: str | None) -> None:
    """Give ``response`` the new token's cookie, and the previous player's token (to offer a merge)
    when there is one; a stale offer is dropped."""
    give_token(response, token, request.url.scheme)
    if previous is not None:
        response.set_cookie(
            PREVIOUS_COOKIE,
            previous,
            max_age=PREVIOUS_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme in ("https", "wss"),
            path="/player",
        )
    elif PREVIOUS_COOKIE in request.cookies:
        response.delete_cookie(PREVIOUS_COOKIE, path="/player")


def agent_of(request: Request) -> str | None:
    """Return the requesting browser's rough name as kept (``parlour.server.edge.browser_names``)."""
    return browser_name(request.headers.get("user-agent"))
