"""The room handler: one message of a page in, the owner's answers out (into the page's outbox).

It is the one dispatcher of every socket URL, and of pages whose messages come through Redis from
another process (``parlour.server.cluster.node``): nothing here knows a transport. What differs between a
player's own game and a friends' table is the :class:`Room`: which seat a page's ``hello`` joins, and
how an action is taken (at a table, the server adds the acting player and answers ``sit`` with the
seat's secret token). The protocol's rules are the same for both: a page says ``hello`` first (only
``ping`` is answered before), every refusal is an ``error`` with the page's ``ref``, and nothing is
changed by a refused message.
"""

from __future__ import annotations

import secrets
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool

from parlour.errors import ParlourError
from parlour.games.registry import Registry
from parlour.server.edge.limits import RateLimits
from parlour.server.edge.metrics import Metrics
from parlour.server.owners.live import Owner
from parlour.server.owners.tables import TableOwner
from parlour.server.wire.outbox import Outbox
from parlour.server.wire.protocol import (
    AckMessage,
    ActionMessage,
    HelloMessage,
    HintMessage,
    HintRequest,
    LegalMessage,
    LegalRequest,
    PingRequest,
    PongMessage,
)
from parlour.server.wire.wire import BadMessage, error_message, read_incoming, read_ref
from parlour.store.secrets import digest


class BadSeatToken(ParlourError):
    """A seat token that is no seat's at this table (forged, stale, or another table's)."""

    code = "bad_seat_token"


class RoomHost(Protocol):
    """What the dispatcher uses of the server: its games (to explain a refusal), its rate limits and
    its metrics (the server's ``Parlour``)."""

    games: Registry
    limits: RateLimits
    metrics: Metrics


class Room(Protocol):
    """One kind of socket URL's rules: the seat a ``hello`` joins and how an action is taken."""

    def seat_for(self, owner: Owner, token: str | None, player_id: int) -> int:
        """Return the seat a page's ``hello`` (with seat ``token``, if any) joins.

        Raises:
            ParlourError: a token that is no seat's.
        """

    async def act(
        self,
        host: RoomHost,
        owner: Owner,
        outbox: Outbox,
        seat: int,
        player_id: int,
        action: dict[str, Any],
        ref: Any,
    ) -> None:
        """Take one action of the page at ``seat`` and acknowledge it into its outbox.

        Raises:
            ParlourError: the action is refused (nothing changed).
        """


class OwnGame:
    """A player's own game (``/ws/{game_id}``): one seat, its player's; actions go to the game as sent."""

    def seat_for(self, owner: Owner, token: str | None, player_id: int) -> int:
        """Return the game's seat: a player's own game is played from one."""
        return owner.game.seats[0]

    async def act(
        self,
        host: RoomHost,
        owner: Owner,
        outbox: Outbox,
        seat: int,
        player_id: int,
        action: dict[str, Any],
        ref: Any,
    ) -> None:
        """Apply the action and acknowledge it once it is durable."""
        version = await owner.act(seat, action)
        outbox.push(AckMessage(type="ack", ref=ref, v=version))


class Table:
    """A friends' table (``/ws/table/{table_id}``): a page acts for the seat of its token, or watches
    from its player's seat or the lobby; actions carry the connection's player, never a page's word."""

    def seat_for(self, owner: Owner, token: str | None, player_id: int) -> int:
        """Return the seat of ``token`` (text of up to 100 characters, as the hello's model reads it);
        without one, the player's own seat, else the lobby.

        Raises:
            BadSeatToken: a token that is no seat's.
        """
        assert isinstance(owner, TableOwner)
        table = owner.game
        if token is not None:
            seat = table.seat_of_token(digest(token))
            if seat is None:
                raise BadSeatToken("this seat token is no seat's at this table", code="bad_seat_token")
            return seat
        return table.watching_seat(player_id)

    async def act(
        self,
        host: RoomHost,
        owner: Owner,
        outbox: Outbox,
        seat: int,
        player_id: int,
        action: dict[str, Any],
        ref: Any,
    ) -> None:
        """Apply one action with the server's own fields set; a seat taken is answered with its token,
        and a page that sat down or stood up watches from its new place."""
        assert isinstance(owner, TableOwner)
        # Fields starting with _ are the server's to set: whatever a page sent under them is dropped.
        clean = {key: value for key, value in action.items() if not str(key).startswith("_")}
        clean["_player"] = player_id
        kind = clean.get("type")
        if kind == "chat":
            await host.limits.hit("chat", f"{owner.game_id}:{seat}")
        seat_token = None
        if kind == "sit":
            seat_token = secrets.token_urlsafe(24)
            clean["_token_hash"] = digest(seat_token)
        version = await owner.act(seat, clean)
        reply = AckMessage(type="ack", ref=ref, v=version)
        if kind not in ("sit", "stand", "leave"):
            outbox.push(reply)
            return
        # The page now watches from its new seat (or the lobby): it is sent that seat's state.
        lobby = owner.game.lobby
        now = lobby if kind != "sit" else owner.game.watching_seat(player_id)
        if seat_token is not None and now != lobby:
            reply["seat"], reply["seat_token"] = now, seat_token
        outbox.push(reply)
        await owner.join(now, outbox, None)


OWN_GAME = OwnGame()
TABLE = Table()


async def handle(
    host: RoomHost,
    room: Room,
    owner: Owner,
    outbox: Outbox,
    player_id: int,
    lang: str,
    message: dict[str, Any],
) -> None:
    """Answer one protocol message of a page connected to ``owner`` (of this process): the replies, or
    the error that refuses it, go into the page's ``outbox``."""
    ref: Any = None
    try:
        ref = read_ref(message.get("ref"))
        seat = owner.seat_of(outbox)
        if seat is None and message["type"] not in ("hello", "ping"):
            raise BadMessage("say hello first", code="bad_message")
        match read_incoming(message):
            case HelloMessage(v=last, seat_token=token):
                await owner.join(room.seat_for(owner, token, player_id), outbox, last)
            case PingRequest():
                outbox.push(PongMessage(type="pong", ref=ref, v=owner.version))
            case _ if seat is None:  # (refused above already, before the message is read)
                raise BadMessage("say hello first", code="bad_message")
            case ActionMessage(action=action):
                with host.metrics.timed_action(owner.game.kind):
                    await room.act(host, owner, outbox, seat, player_id, action, ref)
            case HintRequest(strength=strength):
                await _hint(host, owner, outbox, seat, player_id, strength, ref)
            case LegalRequest():
                async with owner.lock:
                    moves, version = owner.game.legal(seat), owner.version
                outbox.push(LegalMessage(type="legal", ref=ref, v=version, moves=moves))
    except ParlourError as error:
        outbox.push(error_message(host.games, owner.game.kind, owner.version, error, lang, ref))


async def _hint(
    host: RoomHost, owner: Owner, outbox: Outbox, seat: int, player_id: int, strength: Any, ref: Any
) -> None:
    """Answer ``hint``: the game's own hint for the seat, computed in a worker thread on a snapshot
    while play goes on (a rate-limited question: the search is costly).

    Raises:
        BadMessage: the game gives no hints. RateLimited: too many hints a minute. ParlourError: no hint
        now (the game is over) or no such strength.
    """
    task = owner.game.hint_task(seat, strength)
    if task is None:
        raise BadMessage("this game gives no hints", code="no_hint")
    await host.limits.hit("hint", str(player_id))
    hint = await run_in_threadpool(task)
    outbox.push(HintMessage(type="hint", ref=ref, v=owner.version, hint=hint))
