"""Redis goes away in the middle of a friends' match on two processes, and comes back empty (it keeps
nothing on disk): the owner goes on serving the pages connected to it, a page of the other process is
told, translated, that the table cannot be reached and tries again; when Redis is back the owner takes
its lease back and the other process's pages reach the table again. No action acknowledged is lost,
and neither process logs a traceback."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from conftest import helper
from parlour.server.wire.protocol import CLOSE_MOVED
from parlour.store import Store

_processes = helper("cluster_processes")
# Alone: it times a table's lease coming back after Redis does, against the owner's renewals, and on a
# loaded machine (the rest of the suite on both cores) that timing failed twice in three runs.
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.alone]
WAIT = 15.0
"""The longest the test waits for any one answer."""


@pytest.fixture
def outage() -> Iterator[tuple[Any, Any, Any]]:
    with _processes.private_redis() as redis, _processes.two_servers(redis=redis.url) as (first, second):
        yield redis, first, second


class Page:
    """One page at the table over a real socket: its view and its acknowledged moves."""

    def __init__(self, server: Any, table_id: str, cookie: str, token: str | None = None) -> None:
        self.server, self.table_id, self.cookie, self.token = server, table_id, cookie, token
        self.view: dict[str, Any] = {}
        self.acked: list[str] = []
        self.ref = 0
        self.seen: list[dict[str, Any]] = []
        self.sockets = contextlib.ExitStack()
        self.socket: ClientConnection = self.open(server)

    def open(self, server: Any) -> ClientConnection:
        link = f"{server.ws}/ws/table/{self.table_id}?lang=hu"
        opened = connect(link, additional_headers={"Cookie": self.cookie}, open_timeout=WAIT)
        self.socket = self.sockets.enter_context(opened)
        self.socket.send(json.dumps({"type": "hello", "v": None, "seat_token": self.token}))
        return self.socket

    def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        self.seen.append(message)
        if message.get("view"):
            self.view = message["view"]
        return message

    def wait(self, found: Any) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if found(message):
                return message

    def act(self, **action: Any) -> dict[str, Any]:
        self.ref += 1
        self.socket.send(json.dumps({"type": "action", "action": action, "ref": self.ref}))
        return self.wait(lambda m: m["type"] in ("ack", "error") and m.get("ref") == self.ref)

    def play_if_my_turn(self) -> bool:
        view = self.view
        if not view.get("hand") or view.get("turn") != view["tables"]["you"] or view.get("between_rounds"):
            return False
        self.ref += 1
        self.socket.send(json.dumps({"type": "legal", "ref": self.ref}))
        moves = self.wait(lambda m: m["type"] == "legal" and m["ref"] == self.ref)["moves"]
        move = moves[0]
        reply = self.act(**({"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}))
        if reply["type"] == "ack":
            self.acked.append(move)
            return True
        return False

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sockets.close()


def play(pages: list[Page], moves: int) -> int:
    """Let the people play until ``moves`` more of their moves are acknowledged; a page whose socket
    is closed reconnects to its server, as the web page does. Return how many times pages reconnected."""
    target = sum(len(page.acked) for page in pages) + moves
    deadline = time.monotonic() + 60
    reconnected = 0
    while sum(len(page.acked) for page in pages) < target:
        assert time.monotonic() < deadline, "the people could not play on"
        try:
            if not any(page.play_if_my_turn() for page in pages):
                for page in pages:
                    with contextlib.suppress(TimeoutError):
                        page.receive(timeout=0.2)
            for page in pages:
                if page.view.get("between_rounds"):
                    page.act(type="continue")
        except ConnectionClosed:
            for page in pages:
                with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
                    page.socket.send(json.dumps({"type": "ping", "ref": "alive?"}))
                    page.wait(lambda m: m["type"] == "pong")
                    continue
                time.sleep(0.5)
                page.open(page.server)
                page.wait(lambda m: m["type"] == "state")
                reconnected += 1
    return reconnected


def cookie(server: Any) -> str:
    with httpx.Client(base_url=server.url) as client:
        client.post("/api/player")
        return f"parlour_token={client.cookies['parlour_token']}"


def test_a_redis_outage_costs_only_the_pages_that_need_it(outage: tuple[Any, Any, Any]) -> None:
    redis, first, second = outage
    host_cookie = cookie(first)
    made = httpx.post(
        f"{first.url}/api/tables",
        json={"name": "Ana", "settings": {"speed": "instant"}},
        headers={"Cookie": host_cookie},
    ).json()
    table_id = made["table"]
    host = Page(first, table_id, host_cookie, made["seat_token"])  # the first process owns the table
    host.wait(lambda m: m["type"] == "state")
    friend = Page(first, table_id, cookie(first))
    friend.wait(lambda m: m["type"] == "state")
    seated = friend.act(type="sit", seat=1, name="Bo")
    friend.token = seated["seat_token"]
    for seat in (2, 3):
        assert host.act(type="add_bot", seat=seat, strength="greedy")["type"] == "ack"
    assert host.act(type="start")["type"] == "ack"
    watcher = Page(second, table_id, cookie(second))  # relayed through Redis by the second process
    assert watcher.wait(lambda m: m["type"] == "state")["view"]["tables"]["phase"] == "playing"
    play([host, friend], 4)

    redis.stop()  # every key is lost with it: the table's lease too
    # The other process's page loses the table, and is told so when it tries again.
    with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
        while True:
            watcher.receive()
    watcher.open(second)
    told = watcher.wait(lambda m: True)
    assert told["type"] == "unavailable" and told["code"] == "table_unavailable"
    assert told["message"] == "Az asztal most nem érhető el: újrapróbálkozás…" and told["retry_after"] >= 1
    with pytest.raises(ConnectionClosed) as closed:
        watcher.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
    # The owner's own pages play on, without losing their connections.
    assert play([host, friend], 6) == 0

    redis.start()  # empty: the owner takes its lease back at its next renewal
    deadline = time.monotonic() + 30
    dropped = 0
    while True:
        watcher.open(second)
        try:
            first_answer = watcher.wait(lambda m: True)
        except ConnectionClosed:
            # While the process's Redis client reconnects, a socket may be dropped without a close
            # frame (seen once on a loaded machine); the page reconnects, as live.js does.
            dropped += 1
            assert dropped <= 2 and time.monotonic() < deadline, "the relayed page kept being dropped"
            time.sleep(0.5)
            continue
        if first_answer["type"] == "state":
            break
        assert time.monotonic() < deadline, f"the table never came back for the relayed page: {first_answer}"
        time.sleep(first_answer.get("retry_after", 1))
    # Just after Redis is back the relayed page may be sent away once more (4409, "moved") while the
    # owner writes its keys again; like the web page, it reconnects, and then it follows the play.
    play([host, friend], 4)
    bounced = 0
    while True:
        try:
            watcher.wait(lambda m: m["type"] == "event" and m["name"] == "play")
            break
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == CLOSE_MOVED, closed
            bounced += 1
            assert bounced <= 2, "the relayed page was sent away again and again after Redis came back"
            watcher.open(second)
            watcher.wait(lambda m: m["type"] == "state")
            play([host, friend], 2)

    acknowledged = host.acked + friend.acked
    for page in (host, friend, watcher):
        page.close()
    args = first.process.args
    store = Store(args[args.index("--database-url") + 1])
    try:
        table = store.table(table_id)
        assert table.game_id is not None
        recorded = list(store.game_record(table.game_id, table.host).moves)
    finally:
        store.close()
    for page_moves in (host.acked, friend.acked):  # each page's moves are all there, in their order
        position = 0
        for move in page_moves:
            position = recorded.index(move, position) + 1
    assert len(acknowledged) >= 14
    for server in (first, second):
        assert "Traceback" not in "\n".join(server.log), server.log_tail()
