"""The WebSocket of one friends' table: ``/ws/table/{table_id}`` (messages in ``docs/protocol.md``).

A page says ``hello`` with the token of its seat, if it has one: it then acts for that seat and sees
that seat's hand. Without a token it watches from the lobby (or from the seat its player already
holds, after a reload that lost the token), and may ``sit`` in a free seat, which answers with the
seat's secret token. A token that is no seat's gets a clear error and changes nothing. Actions carry
the connection's player; nothing a page sends can name another player or seat.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from parlour.errors import ParlourError
from parlour.server.cluster import REMOTE, TableUnavailable
from parlour.server.context import Parlour
from parlour.server.i18n import protocol_reason
from parlour.server.limits import MAX_TABLE_SOCKETS
from parlour.server.outbox import Outbox, encode_json
from parlour.server.protocol import (
    CLOSE_REFUSED,
    CLOSE_UNAVAILABLE,
    CLOSE_UNKNOWN,
    AckMessage,
    UnavailableMessage,
)
from parlour.server.socket import accept_page, answer_question, page_outbox, refuse
from parlour.server.tables import TableOwner
from parlour.server.wire import BadMessage, error_message, read_frame, read_ref, read_version
from parlour.store.errors import StoreUnavailable
from parlour.store.secrets import digest
from parlour.store.tables import TABLE_ID

log = logging.getLogger("parlour.server")
router = APIRouter()
RETRY_AFTER: Final = 2
"""Seconds a page waits at first before it tries an unavailable table again."""


class BadSeatToken(ParlourError):
    """A seat token that is no seat's at this table (forged, stale, or another table's)."""

    code = "bad_seat_token"


def seat_for(owner: TableOwner, token: Any, player_id: int) -> int:
    """Return the seat a page acts for: its token's, else its player's seat, else the lobby.

    Raises:
        BadSeatToken: a token was given and it is no seat's.
        BadMessage: the token is not text.
    """
    if token is not None:
        if not isinstance(token, str) or len(token) > 100:
            raise BadMessage("a seat token is text", code="bad_message")
        seat = owner.game.seat_of_token(digest(token))
        if seat is None:
            raise BadSeatToken("this seat token is no seat's at this table", code="bad_seat_token")
        return seat
    mine = owner.game.seat_of_player(player_id)
    return owner.game.lobby if mine is None else mine


async def handle(
    parlour: Parlour, owner: TableOwner, outbox: Outbox, player_id: int, lang: str, message: dict[str, Any]
) -> None:
    """Answer one message of a page at a table the caller owns: the replies go into the page's outbox.

    The same call serves a page connected to this process and one whose messages come through Redis
    from another process (``parlour.server.cluster``): only the outbox differs.
    """
    ref: Any = None
    try:
        ref = read_ref(message.get("ref"))
        kind = message["type"]
        seat = owner.seat_of(outbox)
        if kind == "hello":
            chosen = seat_for(owner, message.get("seat_token"), player_id)
            await owner.join(chosen, outbox, read_version(message.get("v")))
        elif seat is None:
            raise BadMessage("say hello first", code="bad_message")
        elif kind == "action":
            await _act(parlour, owner, outbox, seat, player_id, message.get("action"), ref)
        else:
            await answer_question(owner, outbox, seat, kind, ref)
    except ParlourError as error:
        outbox.push(error_message(parlour.games, owner, error, lang, ref))


@router.websocket("/ws/table/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one page's connection to one friends' table until the page goes away.

    With several server processes (``--redis-url``) the table may be owned by another process: the
    page's messages then go to it through Redis, and its replies come back the same way.
    """
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
    outbox = page_outbox(websocket, parlour.games.find(owner.game.kind), lang)
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            try:
                message = read_frame(frame)
            except ParlourError as error:
                outbox.push(error_message(parlour.games, owner, error, lang, None))
                continue
            await handle(parlour, owner, outbox, player.id, lang, message)
    except WebSocketDisconnect:
        pass
    finally:
        owner.disconnect(outbox)
        outbox.stop()


async def _act(
    parlour: Parlour, owner: TableOwner, outbox: Outbox, seat: int, player_id: int, action: Any, ref: Any
) -> None:
    """Apply one action of a page: the server's own fields set, a seat taken answered with its token."""
    if not isinstance(action, dict):
        raise BadMessage("an action must be an object", code="bad_message")
    # Fields starting with _ are the server's to set: whatever a page sent under them is dropped.
    clean = {key: value for key, value in action.items() if not str(key).startswith("_")}
    clean["_player"] = player_id
    kind = clean.get("type")
    if kind == "chat":
        await parlour.limits.hit("chat", f"{owner.game_id}:{seat}")
    seat_token = None
    if kind == "sit":
        seat_token = secrets.token_urlsafe(24)
        clean["_token_hash"] = digest(seat_token)
    with parlour.metrics.timed_action(owner.game.kind):
        version = await owner.act(seat, clean)
    reply = AckMessage(type="ack", ref=ref, v=version)
    if kind in ("sit", "stand"):
        # The page now watches from its new seat (or the lobby): it is sent that seat's state.
        mine = owner.game.seat_of_player(player_id)
        lobby = owner.game.lobby
        now = lobby if mine is None or kind == "stand" else mine
        if seat_token is not None and now != lobby:
            reply["seat"], reply["seat_token"] = now, seat_token
        outbox.push(reply)
        await owner.join(now, outbox, None)
        return
    outbox.push(reply)
