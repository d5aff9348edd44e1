"""The WebSocket of one live game: ``/ws/{game_id}``. The messages are described in ``docs/protocol.md``.

Only the game's owner (the player of the token cookie) may connect; anyone else gets a ``refused``
message and the socket is closed with code 4403 (4404 for an unknown game). A malformed or illegal
message gets an ``error`` with a reason code, changes nothing, and the connection stays open.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.server.context import Parlour
from parlour.server.i18n import choose_language, supported
from parlour.server.limits import MAX_SOCKETS
from parlour.server.live import Owner
from parlour.server.outbox import Item, Outbox
from parlour.server.player_cookie import TOKEN_COOKIE
from parlour.server.protocol import (
    CLOSE_REFUSED,
    CLOSE_TOO_SLOW,
    CLOSE_UNKNOWN,
    AckMessage,
    HintMessage,
    LegalMessage,
    PongMessage,
    RefusedMessage,
)
from parlour.server.security import same_origin
from parlour.server.wire import BadMessage, encode, error_message, parse_message, read_ref, read_version
from parlour.store.types import Player

GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,43}")
"""What a game id looks like (``secrets.token_urlsafe``): anything else is no game, not a query."""

log = logging.getLogger("parlour.server")
router = APIRouter()


@router.websocket("/ws/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Serve one page's connection to one live game until the page goes away."""
    parlour: Parlour = websocket.app.state.parlour
    opened = await accept_page(websocket, parlour)
    if opened is None:
        return
    lang, player = opened
    known = player is not None and GAME_ID.fullmatch(game_id) is not None
    owner = await parlour.owner(game_id, player.id) if known and player is not None else None
    # An unknown game, another player's game and no player at all get the same answer: nothing tells
    # which game ids exist.
    if owner is None or player is None or owner.player_id != player.id:
        await refuse(websocket, "no_such_game", CLOSE_UNKNOWN)
        return
    if owner.connections >= MAX_SOCKETS:
        await refuse(websocket, "too_many_connections", CLOSE_REFUSED)
        return

    # Every message to this page goes through its outbox, in order: the owner's events and the replies.
    outbox = page_outbox(websocket, parlour.games.find(owner.game.kind), lang)
    seat = owner.game.seats[0]
    joined = False
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            ref: Any = None
            try:
                text = frame.get("text")
                if text is None:
                    raise BadMessage(
                        "binary frames are not protocol messages: send JSON text", code="bad_message"
                    )
                message = parse_message(text)
                ref = read_ref(message.get("ref"))
                kind = message["type"]
                if kind == "hello":
                    await owner.join(seat, outbox, read_version(message.get("v")))
                    joined = True
                elif kind == "action":
                    if not joined:
                        raise BadMessage("say hello first", code="bad_message")
                    action = message.get("action")
                    if not isinstance(action, dict):
                        raise BadMessage("an action must be an object", code="bad_message")
                    with parlour.metrics.timed_action(owner.game.kind):
                        version = await owner.act(seat, action)
                    outbox.push(AckMessage(type="ack", ref=ref, v=version))
                elif kind == "hint":
                    if not joined:
                        raise BadMessage("say hello first", code="bad_message")
                    task = owner.game.hint_task(seat, message.get("strength"))
                    if task is None:
                        raise BadMessage("this game gives no hints", code="no_hint")
                    await parlour.limits.hit("hint", str(player.id))
                    hint = await run_in_threadpool(task)
                    outbox.push(HintMessage(type="hint", ref=ref, v=owner.version, hint=hint))
                elif kind == "legal" and not joined:
                    raise BadMessage("say hello first", code="bad_message")
                else:
                    await answer_question(owner, outbox, seat, kind, ref)
            except ParlourError as error:
                outbox.push(error_message(parlour.games, owner, error, lang, ref))
    except WebSocketDisconnect:
        pass
    finally:
        owner.leave(outbox)
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


async def answer_question(owner: Owner, outbox: Outbox, seat: int, kind: str, ref: Any) -> None:
    """Answer a page's ``legal`` or ``ping``.

    Raises:
        BadMessage: any other message type.
    """
    if kind == "legal":
        async with owner.lock:
            moves, version = owner.game.legal(seat), owner.version
        outbox.push(LegalMessage(type="legal", ref=ref, v=version, moves=moves))
    elif kind == "ping":
        outbox.push(PongMessage(type="pong", ref=ref, v=owner.version))
    else:
        raise BadMessage(f"unknown message type {kind!r}", code="bad_message")


def page_outbox(websocket: WebSocket, definition: GameDefinition | None, lang: str) -> Outbox:
    """Return the outbox of one page's socket: views get their game's texts in ``lang``, a numbered
    game's end its records' news, and a page that falls too far behind is closed (it reconnects)."""

    async def send(item: Item) -> None:
        await websocket.send_text(encode(item, definition, lang))

    async def close(code: int | None) -> None:
        await websocket.close(code=CLOSE_TOO_SLOW if code is None else code)

    return Outbox(send, close)


async def refuse(websocket: WebSocket, code: str, close_code: int) -> None:
    await websocket.send_text(json.dumps(RefusedMessage(type="refused", code=code)))
    await websocket.close(code=close_code)
