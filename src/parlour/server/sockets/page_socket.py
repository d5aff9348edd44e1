"""The WebSockets of pages: ``/ws/{game_id}`` (a player's own game) and ``/ws/table/{table_id}`` (a
friends' table). The messages are described in ``docs/protocol.md``.

A page socket accepts the connection (another site's page is refused), knows its player by the token
cookie, finds what it is connected to and then loops: every frame goes to the one dispatcher
(``parlour.server.sockets.rooms``), every answer leaves through the page's outbox. Only a game's owner may
connect to it; an unknown game, another player's game and no player at all get the same ``refused``
(code 4404), so nothing tells which ids exist. A table may be owned by another process (``--redis-url``):
the page's messages then go there through Redis (``parlour.server.cluster.node``), and come back the same way.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.server.cluster.node import REMOTE, TableUnavailable
from parlour.server.context import Parlour
from parlour.server.edge.limits import MAX_SOCKETS, MAX_TABLE_SOCKETS
from parlour.server.edge.player_cookie import TOKEN_COOKIE
from parlour.server.edge.security import same_origin
from parlour.server.i18n import choose_language, protocol_reason, supported
from parlour.server.owners.live import Owner
from parlour.server.owners.tables import TableOwner
from parlour.server.sockets.rooms import OWN_GAME, TABLE, Room, handle
from parlour.server.wire.outbox import Item, Outbox, encode_json
from parlour.server.wire.protocol import (
    CLOSE_REFUSED,
    CLOSE_TOO_SLOW,
    CLOSE_UNAVAILABLE,
    CLOSE_UNKNOWN,
    RefusedMessage,
    UnavailableMessage,
)
from parlour.server.wire.wire import encode, error_message, read_frame
from parlour.store.errors import StoreUnavailable
from parlour.store.tables import TABLE_ID
from parlour.store.types import Player

GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,43}")
"""What a game id looks like (``secrets.token_urlsafe``): anything else is no game, not a query."""
RETRY_AFTER: Final = 2
"""Seconds a page waits at first before it tries an unavailable table again."""

log = logging.getLogger("parlour.server")
router = APIRouter()


@router.websocket("/ws/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Serve one page's connection to one of its player's live games until the page goes away."""
    parlour: Parlour = websocket.app.state.parlour
    opened = await accept_page(websocket, parlour)
    if opened is None:
        return
    lang, player = opened
    known = player is not None and GAME_ID.fullmatch(game_id) is not None
    owner = await parlour.owner(game_id, player.id) if known and player is not None else None
    if owner is None or player is None or owner.player_id != player.id:
        await refuse(websocket, "no_such_game", CLOSE_UNKNOWN)
        return
    if owner.connections >= MAX_SOCKETS:
        await refuse(websocket, "too_many_connections", CLOSE_REFUSED)
        return
    await serve(websocket, parlour, OWN_GAME, owner, player.id, lang)


@router.websocket("/ws/table/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one page's connection to one friends' table until the page goes away, here or relayed
    to the process that owns the table."""
    parlour: Parlour = websocket.app.state.parlour
    opened = await accept_page(websocket, parlour)
    if opened is None:
        return
    lang, player = opened
    if player is None or TABLE_ID.fullmatch(table_id) is None:  # no player, or no table: one answer
        await refuse(websocket, "no_such_table", CLOSE_UNKNOWN)
        return
    owner: TableOwner | None
    try:
        if parlour.cluster is not None:
            route = await parlour.cluster.route(parlour, table_id)
            if route == REMOTE:  # another process owns the table: relay this page to it
                # The owner sends a relayed page its texts ready to go (in the page's language): the
                # relay adds nothing, so it needs no game of its own.
                outbox = page_outbox(websocket, None, lang)
                await parlour.cluster.relay(websocket, table_id, outbox, player.id, lang)
                return
            owner = route if isinstance(route, TableOwner) else None
        else:
            owner = await parlour.tables.open(table_id, parlour)
    except (TableUnavailable, StoreUnavailable) as error:
        log.info("table %s: unavailable to a page now: %s", table_id, error)
        await websocket.send_text(
            encode_json(
                UnavailableMessage(
                    type="unavailable",
                    code=TableUnavailable.code,
                    message=protocol_reason(TableUnavailable.code, lang),
                    retry_after=RETRY_AFTER,
                )
            )
        )
        await websocket.close(code=CLOSE_UNAVAILABLE)
        return
    if owner is None:
        await refuse(websocket, "no_such_table", CLOSE_UNKNOWN)
        return
    if owner.connections >= MAX_TABLE_SOCKETS:
        await refuse(websocket, "too_many_connections", CLOSE_REFUSED)
        return
    await serve(websocket, parlour, TABLE, owner, player.id, lang)


async def serve(
    websocket: WebSocket, parlour: Parlour, room: Room, owner: Owner, player_id: int, lang: str
) -> None:
    """Loop over a page's frames until it goes away: each one answered by the room handler, every
    message to the page sent through its outbox, in order."""
    outbox = page_outbox(websocket, parlour.games.find(owner.game.kind), lang)
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            try:
                message = read_frame(frame)
            except ParlourError as error:
                outbox.push(error_message(parlour.games, owner.game.kind, owner.version, error, lang, None))
                continue
            await handle(parlour, room, owner, outbox, player_id, lang, message)
    except WebSocketDisconnect:
        pass
    finally:
        owner.disconnect(outbox)
        outbox.stop()


async def accept_page(websocket: WebSocket, parlour: Parlour) -> tuple[str, Player | None] | None:
    """Accept a page's socket and return its language and player (None when it has no valid token);
    None, with the socket refused (``cross_site``, 4403), for a page of another site."""
    await websocket.accept()
    # Another site's page may not play in this player's name.
    if not same_origin(websocket.headers, websocket.url.scheme):
        await refuse(websocket, "cross_site", CLOSE_REFUSED)
        return None
    lang = supported(websocket.query_params.get("lang")) or choose_language(
        websocket.cookies, websocket.headers.get("accept-language")
    )
    token = websocket.cookies.get(TOKEN_COOKIE)
    player = await parlour.call(parlour.store.player_by_token, token) if token else None
    return lang, player


def page_outbox(websocket: WebSocket, definition: GameDefinition | None, lang: str) -> Outbox:
    """Return the outbox of one page's socket: views get their game's texts in ``lang``, a numbered
    game's end its records' news, and a page that falls too far behind is closed (it reconnects)."""

    async def send(item: Item) -> None:
        await websocket.send_text(encode(item, definition, lang))

    async def close(code: int | None) -> None:
        await websocket.close(code=CLOSE_TOO_SLOW if code is None else code)

    return Outbox(send, close)


async def refuse(websocket: WebSocket, code: str, close_code: int) -> None:
    """Tell a page its connection is refused (``code``) and close it with ``close_code``."""
    await websocket.send_text(json.dumps(RefusedMessage(type="refused", code=code)))
    await websocket.close(code=close_code)
