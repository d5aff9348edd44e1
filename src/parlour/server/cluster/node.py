"""Several ``parlour serve`` processes serving the same friends' tables, through Redis.

With ``--redis-url`` (and a database every process shares, PostgreSQL), any number of processes, behind
any load balancer and without sticky sessions, serve the same tables:

- **One owner per table.** A table lives in the process that holds its *lease*, a Redis key
  (``parlour:table:{id}:lease``) set with ``NX`` and a time to live of :data:`LEASE_MS`, renewed every
  :data:`RENEW_SECONDS` by its holder (a script that renews only the holder's own lease). The first
  process a page of the table reaches takes the lease and restores the table from the database by
  replay.
- **Pages reach the owner through pub/sub.** A page connected to another process is *relayed*: its
  messages are published on the table's channel (``parlour:table:{id}:in``) with the connection's id;
  the owner answers on the connection's own channel (``parlour:conn:{id}``), in order, exactly the
  messages a page connected to it would get, as the text such a page is sent (in the relayed page's
  language), which the relay passes on unread. The owner drops a relayed page that has not said it is
  alive for :data:`STALE_SECONDS`, and tells it to reconnect.
- **A dead owner's tables move.** When the owner dies its Redis connection goes, so nobody listens on
  the table's channel any more: a relay that finds no listener closes its page's socket (code 4409),
  the page reconnects, and once the lease has run out the process the page reaches takes it and
  restores the table from the database. Every process also keeps a *heartbeat* key
  (``parlour:node:{node}:alive``, :data:`HEARTBEAT_MS`, renewed every :data:`HEARTBEAT_SECONDS`):
  a lease whose holder has no heartbeat is taken over at once (:data:`STEAL_SCRIPT`), so a dead
  process's tables move within seconds instead of waiting out their leases. Every acknowledged action
  is in the database (it is written before its ack), so none is lost. A process that fails to renew
  a lease (Redis unreachable, or a pause longer than the lease) drops the table at once, so two owners
  never write one table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from fastapi import WebSocket, WebSocketDisconnect
from redis.asyncio import Redis
from redis.exceptions import RedisError

from parlour.errors import ParlourError
from parlour.games.registry import Registry
from parlour.server.cluster.channels import Channel, Publisher
from parlour.server.cluster.keys import (
    ALIVE_SECONDS,
    DELIVER_SECONDS,
    HEARTBEAT_MS,
    HEARTBEAT_SECONDS,
    LEASE_MS,
    RELEASE_SCRIPT,
    RENEW_SCRIPT,
    RENEW_SECONDS,
    STALE_SECONDS,
    STEAL_SCRIPT,
    alive_key,
    conn_channel,
    lease_key,
    table_channel,
)
from parlour.server.cluster.remote import RemotePage
from parlour.server.edge.limits import MAX_TABLE_SOCKETS
from parlour.server.edge.logs import table_tag
from parlour.server.edge.metrics import Metrics
from parlour.server.owners.tables import TableKeeper, TableOwner, Tables
from parlour.server.wire.outbox import Outbox, Prepared, encode_json
from parlour.server.wire.protocol import CLOSE_MOVED, CLOSE_REFUSED
from parlour.server.wire.wire import error_message, read_frame
from parlour.store.errors import StoreUnavailable

MOVED: Final = {"type": "moved"}
"""What the owner of a table sends its relayed pages when it gives the table up."""
MOVED_TEXT: Final = encode_json(MOVED)
FULL_TEXT: Final = encode_json({"type": "refused", "code": "too_many_connections"})
"""What the owner answers a relayed page beyond the table's :data:`MAX_TABLE_SOCKETS`."""
REDIS_CONNECT_SECONDS: Final = 2.0
REDIS_COMMAND_SECONDS: Final = 5.0
"""The longest a Redis command of the cluster may wait for its answer."""
REMOTE: Final = "remote"
"""What :meth:`Cluster.route` returns for a table another process owns."""

log = logging.getLogger("parlour.server")


class TableUnavailable(ParlourError):
    """A table's owner cannot be found or reached now (Redis, or the database, does not answer): the
    page is told so and reconnects after a while."""

    code = "table_unavailable"


RoomHandler = Callable[[TableOwner, Outbox, int, str, dict[str, Any]], Awaitable[None]]
"""Answers one message of a page at a table this process owns (the table's owner, the page's outbox,
its player and language, the message), the same for a page connected here and a relayed one: the
server gives the cluster its handler (``parlour.server.sockets.rooms``) when it starts it."""


class ClusterHost(TableKeeper, Protocol):
    """What the cluster needs of the process it runs in (``parlour.server.context.Parlour``): its live
    tables, the keeper that restores them, its games, its metrics, and whether it is draining."""

    tables: Tables
    games: Registry
    metrics: Metrics
    draining: bool


def _is_hello(frame: Any) -> bool:
    """Return whether a relayed frame is a page's ``hello`` (the first thing a page says), read as
    the owner reads every frame."""
    try:
        return bool(read_frame(frame).get("type") == "hello")
    except ParlourError:
        return False


class Cluster:
    """This process's part in a group of Parlour processes sharing a database and a Redis."""

    def __init__(self, url: str) -> None:
        self.url = url
        # A Redis that stops answering fails a command in seconds, and a vanished one is noticed by
        # TCP keepalives (the listener's own reads wait at most a second each).
        self.redis: Redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=REDIS_CONNECT_SECONDS,
            socket_timeout=REDIS_COMMAND_SECONDS,
            socket_keepalive=True,
        )
        self.node = secrets.token_hex(8)
        self.publisher = Publisher(self.redis)
        self.parlour: ClusterHost | None = None
        self.rooms: RoomHandler | None = None
        self._pubsub: Any = None
        self._channels: dict[str, Channel] = {}
        self._remote: dict[str, dict[str, RemotePage]] = {}
        """Relayed pages of each table this process owns, by connection id."""
        self._tasks: list[asyncio.Task[None]] = []
        self._routing = asyncio.Lock()
        self.redis_down_since: float | None = None
        """When Redis stopped answering this process (None while it answers)."""
        self._renew_now = asyncio.Event()
        self._renewing: asyncio.Task[None] | None = None

    # --- life -----------------------------------------------------------------------------------

    async def start(self, parlour: ClusterHost, rooms: RoomHandler) -> None:
        """Connect to Redis and start listening and renewing, for ``parlour``, whose ``rooms`` answer the
        messages of the pages relayed here.

        Raises:
            RedisError: Redis cannot be reached.
        """
        self.parlour = parlour
        self.rooms = rooms
        await self.redis.ping()
        await self.redis.set(alive_key(self.node), "1", px=HEARTBEAT_MS)  # alive before holding anything
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(f"parlour:node:{self.node}")  # listen() needs one subscription
        loop = asyncio.get_running_loop()
        self._renewing = loop.create_task(self._renew())
        self._tasks = [loop.create_task(self._listen()), self._renewing, loop.create_task(self._heartbeat())]

    async def stop(self) -> None:
        """Give up this process's leases (another process takes the tables at once) and disconnect."""
        for task in [*self._tasks, *(channel.task for channel in self._channels.values())]:
            task.cancel()
        if self.parlour is not None:
            for table_id in list(self._remote):
                with contextlib.suppress(RedisError):
                    await self.redis.eval(RELEASE_SCRIPT, 1, lease_key(table_id), self.node)
        with contextlib.suppress(RedisError):
            await self.redis.delete(alive_key(self.node))
        with contextlib.suppress(RedisError, RuntimeError):
            if self._pubsub is not None:
                await self._pubsub.aclose()
            await self.redis.aclose()

    async def _subscribe(self, channel: str, handler: Callable[[str], Awaitable[None]]) -> None:
        """Listen on ``channel`` (redis-py subscribes again by itself after a reconnection).

        Raises:
            RedisError: Redis does not answer (nothing is left subscribed).
        """
        if channel not in self._channels:
            self._channels[channel] = Channel(handler)
            try:
                await self._pubsub.subscribe(channel)
            except BaseException:
                self._channels.pop(channel).task.cancel()
                raise

    async def _unsubscribe(self, channel: str) -> None:
        found = self._channels.pop(channel, None)
        if found is not None:
            found.task.cancel()
            with contextlib.suppress(RedisError):
                await self._pubsub.unsubscribe(channel)

    def _redis_failed(self, error: BaseException) -> None:
        """Note that Redis does not answer (one warning an outage, no traceback)."""
        if self.redis_down_since is None:
            self.redis_down_since = time.monotonic()
            log.warning(
                "Redis does not answer (%s): this process keeps serving its own tables' pages; "
                "pages of tables owned elsewhere are told to retry",
                error,
            )

    def _redis_answered(self) -> None:
        if self.redis_down_since is not None:
            log.warning("Redis answers again after %.1f s", time.monotonic() - self.redis_down_since)
            self.redis_down_since = None
            self._renew_now.set()  # take the leases back before another process finds them free

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except (RedisError, OSError) as error:
                self._redis_failed(error)
                await asyncio.sleep(0.5)
                continue
            self._redis_answered()
            if message is None or message.get("type") != "message":
                continue
            channel = self._channels.get(message["channel"])
            if channel is not None:
                channel.queue.put_nowait(message["data"])

    # --- leases ---------------------------------------------------------------------------------

    async def route(self, parlour: ClusterHost, table_id: str) -> TableOwner | str | None:
        """Return the table's owner when this process owns it (taking its lease if it is free),
        :data:`REMOTE` when another process does, None for no such table.

        A table this process owns is served whether Redis answers or not.

        Raises:
            TableUnavailable: Redis or the database does not answer, so the owner cannot be known.
        """
        async with self._routing:
            owner = parlour.tables.get(table_id)
            if owner is not None:
                return owner
            try:
                return await self._take(parlour, table_id)
            except (RedisError, OSError) as error:
                self._redis_failed(error)
                raise TableUnavailable(f"table {table_id}: Redis does not answer") from error
            except StoreUnavailable as error:
                with contextlib.suppress(RedisError, OSError):
                    await self.redis.eval(RELEASE_SCRIPT, 1, lease_key(table_id), self.node)
                raise TableUnavailable(f"table {table_id}: the database does not answer") from error

    async def _take(self, parlour: ClusterHost, table_id: str) -> TableOwner | str | None:
        """Take a table's lease and the table with it (the caller holds the routing lock); a process
        that is draining takes none, and answers :data:`REMOTE` or raises :class:`TableUnavailable`.
        """
        if parlour.draining:
            if await self.redis.exists(lease_key(table_id)):
                return REMOTE
            raise TableUnavailable(f"table {table_id}: this process is shutting down")
        taken = await self.redis.eval(STEAL_SCRIPT, 1, lease_key(table_id), self.node, LEASE_MS)
        self._redis_answered()
        if not taken:
            return REMOTE
        owner = await parlour.tables.open(table_id, parlour)
        if owner is None:
            await self.redis.eval(RELEASE_SCRIPT, 1, lease_key(table_id), self.node)
            return None
        self._remote[table_id] = {}
        try:
            await self._subscribe(table_channel(table_id), lambda text: self._serve(table_id, text))
        except BaseException:
            await self._drop(table_id)  # a table nobody else could reach: not held at all
            raise
        return owner

    async def _heartbeat(self) -> None:
        """Tell the other processes this one is alive (its leases are not to be taken over)."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.redis.set(alive_key(self.node), "1", px=HEARTBEAT_MS)
            except (RedisError, OSError) as error:
                self._redis_failed(error)

    async def _renew(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._renew_now.wait(), RENEW_SECONDS)
            self._renew_now.clear()
            await self.renew_once()

    async def renew_once(self) -> None:
        """Renew this process's heartbeat and every lease it holds, taking back those Redis lost; let go
        of the tables another process holds now, and forget relayed pages not heard from for
        :data:`STALE_SECONDS`. Without Redis nothing changes (the failure is noted)."""
        now = time.monotonic()
        owned = list(self._remote)
        # Every lease in one round trip: a process with hundreds of tables renews them all at once.
        # The heartbeat goes first, in the same round trip: after Redis restarted empty, a lease
        # taken back without it would look held by a dead process, and another process would take
        # the table over at once (commands of one pipeline run in order).
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(alive_key(self.node), "1", px=HEARTBEAT_MS)
                for table_id in owned:
                    pipe.eval(RENEW_SCRIPT, 1, lease_key(table_id), self.node, LEASE_MS)
                renewed = (await pipe.execute())[1:]
        except (RedisError, OSError) as error:
            if owned:
                self._count_leases("failed", len(owned))
            # Without Redis nobody can take a lease, and a process that could (cut off from this
            # one only) is fenced out by the database: the tables stay here, served to their
            # pages here, until Redis answers again and the leases are renewed or taken back.
            self._redis_failed(error)
            return
        self._redis_answered()
        for table_id, kept in zip(owned, renewed, strict=True):
            self._count_leases({0: "lost", 1: "renewed", 2: "taken_back"}.get(kept, "renewed"))
            if not kept:
                log.warning("table %s: another process holds its lease: letting it go", table_id)
                await self._drop(table_id)
                continue
            if kept == 2:
                log.info("table %s: its lease was taken back", table_id)
            for conn, page in list(self._remote.get(table_id, {}).items()):
                if now - page.seen > STALE_SECONDS:
                    await self._forget(table_id, conn)
                    # If the page is still there after all, it reconnects and says hello again:
                    # its next action must not reach an owner that has forgotten it.
                    await self._answer(conn, MOVED_TEXT)

    def _count_leases(self, result: str, count: int = 1) -> None:
        if self.parlour is not None:
            self.parlour.metrics.leases.labels(result).inc(count)

    async def hand_over(self) -> int:
        """Give every table this process owns to whichever process its pages reach next (draining
        before a shutdown): each table's action in progress finishes (its write with it), then its lease
        is given up, so another process can take it at once, and its pages, here and relayed, are told
        to reconnect (4409). Returns how many tables were handed over.

        Leases are no longer renewed (a renewal would take a released lease back); the caller has
        marked the process draining, so it takes no table any more (:meth:`_take`).
        """
        if self._renewing is not None:
            self._renewing.cancel()
        handed = 0
        async with self._routing:
            for table_id in list(self._remote):
                owner = self.parlour.tables.get(table_id) if self.parlour is not None else None
                async with owner.lock if owner is not None else contextlib.nullcontext():
                    with contextlib.suppress(RedisError, OSError):
                        await self.redis.eval(RELEASE_SCRIPT, 1, lease_key(table_id), self.node)
                    await self._drop(table_id)
                if owner is not None:
                    handed += 1
                    log.info(
                        "table %s: handed over (draining): its pages go to another process",
                        table_tag(table_id),
                    )
        return handed

    async def evict_idle(self, older_than: float) -> int:
        """Give up the tables idle here for ``older_than`` seconds (their leases too); return how many."""
        if self.parlour is None:
            return 0
        idle = self.parlour.tables.idle(older_than)
        for table_id in idle:
            await self._drop(table_id)
            with contextlib.suppress(RedisError):
                await self.redis.eval(RELEASE_SCRIPT, 1, lease_key(table_id), self.node)
        return len(idle)

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table another process has taken over (its lease is that process's)."""
        await self._drop(table_id)

    async def _drop(self, table_id: str) -> None:
        """Stop owning a table: its pages here are closed and reconnect; relayed pages are told."""
        await self._unsubscribe(table_channel(table_id))
        pages = self._remote.pop(table_id, {})
        for page in pages.values():
            page.outbox.end(MOVED, CLOSE_MOVED)
        if self.parlour is not None:
            owner = self.parlour.tables.drop(table_id)
            if owner is not None:
                owner.close_pages()

    # --- serving relayed pages (this process owns the table) ------------------------------------

    async def _serve(self, table_id: str, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            log.warning("a cluster message was not JSON")
            return
        if not isinstance(message, dict):
            return
        parlour = self.parlour
        pages = self._remote.get(table_id)
        owner = parlour.tables.get(table_id) if parlour is not None else None
        conn = message.get("conn")
        if parlour is None or owner is None or pages is None or not isinstance(conn, str):
            return
        op = message.get("op")
        page = pages.get(conn)
        if op == "leave":
            await self._forget(table_id, conn)
            return
        if page is None:
            player, lang = message.get("player"), message.get("lang")
            if not isinstance(player, int) or not isinstance(lang, str):
                return
            if not _is_hello(message.get("frame")):  # a page this owner forgot (or never met)
                await self._answer(conn, MOVED_TEXT)  # it reconnects
                return
            if owner.connections >= MAX_TABLE_SOCKETS:  # counted here, where every page of it is
                await self._answer(conn, FULL_TEXT)
                return
            definition = parlour.games.find(owner.game.kind)
            page = pages[conn] = RemotePage(self.publisher, conn, player, lang, definition)
        page.seen = time.monotonic()
        sent = message.get("at")
        if isinstance(sent, float):  # the relay's clock: another host's may differ a little
            parlour.metrics.relay_lag.observe(max(0.0, time.time() - sent))
        if op == "frame":
            try:
                read = read_frame(message.get("frame") or {})
            except ParlourError as error:
                page.outbox.push(
                    error_message(parlour.games, owner.game.kind, owner.version, error, page.lang, None)
                )
                return
            if self.rooms is not None:
                await self.rooms(owner, page.outbox, page.player_id, page.lang, read)

    async def _answer(self, conn: str, text: str) -> None:
        """Send one text to a relayed page that has no outbox here (a Redis failure is its relay's
        to notice: it finds no owner and its page reconnects)."""
        with contextlib.suppress(RedisError):
            await self.publisher.publish(conn_channel(conn), text)

    async def _forget(self, table_id: str, conn: str) -> None:
        page = self._remote.get(table_id, {}).pop(conn, None)
        owner = self.parlour.tables.get(table_id) if self.parlour is not None else None
        if page is not None:
            page.outbox.stop()
            if owner is not None:
                owner.disconnect(page.outbox)

    # --- relaying a page to the owner (another process owns the table) ---------------------------

    async def relay(
        self, websocket: WebSocket, table_id: str, outbox: Outbox, player_id: int, lang: str
    ) -> None:
        """Serve a page whose table another process owns: its messages go there, the answers come back.

        Raises:
            TableUnavailable: Redis does not answer (before anything was relayed).
        """
        conn = secrets.token_urlsafe(12)
        moved = asyncio.Event()
        refused = asyncio.Event()  # the table has as many pages as it takes

        async def answer(text: str) -> None:
            if text == FULL_TEXT:
                refused.set()
                outbox.push(Prepared.of_text(text, final=True))
                moved.set()
                return
            if text == MOVED_TEXT:
                log.info("table %s: it is moving to another process: its page reconnects", table_id)
                moved.set()
                return
            outbox.push(Prepared.of_text(text, final=True))  # already in the page's language

        async def publish(op: str, **fields: Any) -> bool:
            body = {"op": op, "conn": conn, "player": player_id, "lang": lang, "at": time.time(), **fields}
            try:
                return bool(await self.publisher.publish(table_channel(table_id), json.dumps(body)))
            except RedisError:
                return False

        async def deliver(op: str, **fields: Any) -> bool:
            """Publish to the owner; while the table's lease is held (its owner may be still restoring
            the table, not yet listening) try again for up to :data:`DELIVER_SECONDS`."""
            deadline = time.monotonic() + DELIVER_SECONDS
            while True:
                if await publish(op, **fields):
                    return True
                try:
                    # Held by a process that is alive (perhaps still restoring the table)? One whose
                    # heartbeat stopped is dead: the page reconnects, and its lease is taken over.
                    holder = await self.redis.get(lease_key(table_id))
                    if isinstance(holder, bytes):
                        holder = holder.decode()
                    held = holder is not None and bool(await self.redis.exists(alive_key(holder)))
                except RedisError:
                    held = False
                if not held or time.monotonic() > deadline:
                    log.info("table %s: no process owns it now (%s): its page reconnects", table_id, op)
                    return False
                await asyncio.sleep(0.05)

        async def alive() -> None:
            while True:
                await asyncio.sleep(ALIVE_SECONDS)
                if not await deliver("alive"):
                    moved.set()

        try:
            await self._subscribe(conn_channel(conn), answer)
        except (RedisError, OSError) as error:
            self._redis_failed(error)
            raise TableUnavailable(f"table {table_id}: Redis does not answer") from error
        beat = asyncio.get_running_loop().create_task(alive())
        receiving = asyncio.get_running_loop().create_task(websocket.receive())
        waiting = asyncio.get_running_loop().create_task(moved.wait())
        try:
            while True:
                done, _ = await asyncio.wait({receiving, waiting}, return_when=asyncio.FIRST_COMPLETED)
                if waiting in done:
                    break  # the owner is gone or the table moved: the page reconnects
                frame = receiving.result()
                if frame["type"] == "websocket.disconnect":
                    break
                receiving = asyncio.get_running_loop().create_task(websocket.receive())
                # The owner reads the frame, so that a bad one is answered as it would be there.
                if not await deliver("frame", frame={"text": frame.get("text")}):
                    break  # nobody owns the table now: the page reconnects and the table moves
        except WebSocketDisconnect:
            pass
        finally:
            beat.cancel()
            receiving.cancel()
            waiting.cancel()
            await publish("leave")
            await self._unsubscribe(conn_channel(conn))
            await outbox.flush()
            outbox.stop()
            with contextlib.suppress(Exception):
                await websocket.close(code=CLOSE_REFUSED if refused.is_set() else CLOSE_MOVED)
