"""Two ``parlour serve`` processes, one PostgreSQL and one Redis: a friends' table is owned by one process
and played from both; when the owner is killed with SIGKILL the table moves to the other process and
every acknowledged action is still there."""

from __future__ import annotations

import contextlib
import json
import signal
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import helper

if TYPE_CHECKING:
    import cluster_processes as _processes  # (for the types: at run time it is loaded by its path)
else:
    _processes = helper("cluster_processes")
Server = _processes.Server
pytestmark = [pytest.mark.slow, pytest.mark.postgres]


@pytest.fixture
def servers() -> Iterator[tuple[Any, Any]]:
    with _processes.two_servers() as both:
        yield both
        OPEN.close()


OPEN = contextlib.ExitStack()
"""Every socket the test opened (closed at its end)."""


class Page(_processes.TablePage):
    """One person's page: a socket to one server, what it was sent, its view, the version it has seen,
    its acknowledged moves."""

    def __init__(self, server: Server, table_id: str, cookie: str, token: str | None = None) -> None:
        self.version = -1
        self.acked: list[str] = []
        super().__init__(OPEN, server, table_id, cookie, token)

    def receive(self, timeout: float = 15) -> dict[str, Any]:
        message = super().receive(timeout)
        if message["type"] in ("state", "event"):
            self.version = message["v"]
        return message

    def legal(self) -> list[str]:
        self.ref += 1
        self.socket.send(json.dumps({"type": "legal", "ref": self.ref}))
        moves: list[str] = self.wait(lambda m: m["type"] == "legal" and m["ref"] == self.ref)["moves"]
        return moves

    def my_turn(self) -> bool:
        view = self.view
        return "hand" in view and view.get("turn") == view["tables"]["you"] and not view.get("between_rounds")

    def play_once(self) -> bool:
        """Make this seat's first legal move if it is its turn; return whether one was acknowledged."""
        if not self.my_turn():
            return False
        moves = self.legal()
        if not moves:
            return False
        move = moves[0]
        action = {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}
        reply = self.act(**action)
        if reply["type"] == "ack":
            self.acked.append(move)
            return True
        return False


def play(pages: list[Page], actions: int, seconds: float = 60) -> None:
    """Let the people play until ``actions`` more of their moves have been acknowledged."""
    target = sum(len(page.acked) for page in pages) + actions
    deadline = time.monotonic() + seconds
    while sum(len(page.acked) for page in pages) < target and time.monotonic() < deadline:
        moved = False
        for page in pages:
            moved = page.play_once() or moved
        if not moved:
            for page in pages:
                with contextlib.suppress(TimeoutError):
                    page.receive(timeout=0.3)
        if any(page.view.get("between_rounds") for page in pages):
            for page in pages:
                if page.view.get("between_rounds"):
                    page.act(type="continue")
    assert sum(len(page.acked) for page in pages) >= target, "the people could not play on"


def test_a_table_moves_to_the_other_process_when_its_owner_is_killed(servers: tuple[Server, Server]) -> None:
    first, second = servers
    host_http, host_cookie = _processes.player_cookie(first)
    made = host_http.post("/api/tables", json={"name": "Ana", "settings": {"speed": "instant"}}).json()
    host = Page(first, made["table"], host_cookie, made["seat_token"])  # the first process owns the table
    friend_http, friend_cookie = _processes.player_cookie(second)
    friend = Page(second, made["table"], friend_cookie)  # relayed through Redis by the second process
    assert friend.view["tables"]["you"] is None and friend.view["tables"]["seats"][0]["name"] == "Ana"
    seated = friend.act(type="sit", seat=1, name="Bo")
    assert seated["type"] == "ack" and seated["seat"] == 1
    friend.token = seated["seat_token"]
    friend.wait(lambda m: m["type"] == "state" and m["view"]["tables"]["you"] == 1)
    assert friend.act(type="start")["code"] == "not_host"  # the owner's refusal, through the relay
    for seat in (2, 3):
        assert host.act(type="add_bot", seat=seat, strength="greedy")["type"] == "ack"
    assert host.act(type="start")["type"] == "ack"
    friend.wait(lambda m: "hand" in m.get("view", {}))
    assert not set(host.view["hand"]) & set(friend.view["hand"])
    play([host, friend], 6)
    acknowledged = list(host.acked), list(friend.acked)

    first.kill()  # SIGKILL: no lease given back, no goodbye to Redis
    for page in (host, friend):
        with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
            while True:
                page.receive(timeout=12)
    # The pages reconnect (to the process still there); once the lease runs out it takes the table.
    deadline = time.monotonic() + 30
    for page in (host, friend):
        while True:
            try:
                page.open(second)
                break
            except (ConnectionClosed, TimeoutError, OSError):
                assert time.monotonic() < deadline, "the table never moved"
                time.sleep(0.5)
    assert host.view["tables"]["you"] == 0 and friend.view["tables"]["you"] == 1
    # Every acknowledged move is in the match's record, in the order it was made.
    moves = _recorded_moves(first, made["table"])
    for acked in acknowledged:
        position = 0
        for move in acked:
            position = moves.index(move, position) + 1
    assert sum(len(acked) for acked in acknowledged) >= 6
    play([host, friend], 4)  # and the table plays on in its new process
    host_http.close()
    friend_http.close()


def _recorded_moves(server: Server, table_id: str) -> list[str]:
    args = server.process.args
    assert isinstance(args, list)
    database = args[args.index("--database-url") + 1]
    from parlour.store import Store

    store = Store(database)
    try:
        table = store.table(table_id)
        assert table.game_id is not None
        return list(store.game_record(table.game_id, table.host).moves)
    finally:
        store.close()


def test_a_table_takes_a_bounded_number_of_pages_also_through_another_process(
    servers: tuple[Server, Server],
) -> None:
    """The owner counts every page of its table, relayed ones too: the page beyond the limit is refused
    (code 4403) by whichever process it reached, and the table goes on."""
    from parlour.server.edge.limits import MAX_TABLE_SOCKETS

    first, second = servers
    host_http, host_cookie = _processes.player_cookie(first)
    made = host_http.post("/api/tables", json={"name": "Ana"}).json()
    host = Page(first, made["table"], host_cookie, made["seat_token"])
    watcher_http, cookie = _processes.player_cookie(second)
    OPEN.callback(host_http.close)
    OPEN.callback(watcher_http.close)
    watchers = [Page(second, made["table"], cookie) for _ in range(MAX_TABLE_SOCKETS - 1)]
    assert all(page.view["tables"]["seats"][0]["name"] == "Ana" for page in watchers)
    link = f"{second.ws}/ws/table/{made['table']}"
    with connect(link, additional_headers={"Cookie": cookie}, open_timeout=10) as extra:
        extra.send(json.dumps({"type": "hello", "v": None}))
        assert json.loads(extra.recv(timeout=10)) == {"type": "refused", "code": "too_many_connections"}
        with pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    assert host.act(type="add_bot", seat=1)["type"] == "ack"  # the table is unharmed


def test_sigterm_drains_the_owner_and_its_table_moves_at_once(servers: tuple[Server, Server]) -> None:
    """SIGTERM: the owner finishes what it was doing, gives its lease up and tells every page of the
    table to reconnect (4409), here and relayed; it exits cleanly, and the other process takes the
    table at the pages' first try, with every acknowledged move."""
    from redis import Redis

    from parlour.server.cluster.keys import lease_key
    from parlour.server.wire.protocol import CLOSE_MOVED

    first, second = servers
    host_http, host_cookie = _processes.player_cookie(first)
    made = host_http.post("/api/tables", json={"name": "Ana", "settings": {"speed": "instant"}}).json()
    host = Page(first, made["table"], host_cookie, made["seat_token"])
    friend_http, friend_cookie = _processes.player_cookie(second)
    friend = Page(second, made["table"], friend_cookie)
    friend.token = friend.act(type="sit", seat=1, name="Bo")["seat_token"]
    friend.wait(lambda m: m["type"] == "state" and m["view"]["tables"]["you"] == 1)
    for seat in (2, 3):
        assert host.act(type="add_bot", seat=seat, strength="greedy")["type"] == "ack"
    assert host.act(type="start")["type"] == "ack"
    friend.wait(lambda m: "hand" in m.get("view", {}))
    play([host, friend], 6)
    acknowledged = list(host.acked), list(friend.acked)
    hands = list(host.view["hand"]), list(friend.view["hand"])

    first.process.send_signal(signal.SIGTERM)
    for page in (host, friend):
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                page.receive(timeout=12)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_MOVED
    assert first.process.wait(timeout=15) == 0
    log = first.log_tail(400)
    assert "drained in" in log and "1 tables handed over" in log and "Traceback" not in log, log
    with Redis.from_url(_processes.REDIS) as redis:
        assert redis.get(lease_key(made["table"])) is None  # given up, not left to run out
    for page, hand in zip((host, friend), hands, strict=True):
        page.open(second)  # the first try: the table is taken and restored from its record at once
        assert page.view["hand"] == hand
    moves = _recorded_moves(second, made["table"])
    for acked in acknowledged:
        position = 0
        for move in acked:
            position = moves.index(move, position) + 1
    play([host, friend], 4)
    host_http.close()
    friend_http.close()
