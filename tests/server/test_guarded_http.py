"""The edge of ``parlour serve`` (issue 48, item 7; ``parlour.server.edge.guarded_http``): an oversized head
is refused 431 without the process's memory growing, a head that dribbles in is cut, and a thousand slow
connections from one address leave a player on another address free to load a page and move."""

from __future__ import annotations

import contextlib
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from websockets.sync.client import connect

from conftest import helper
from parlour.server.edge.guarded_http import (
    CONNECTIONS_PER_ADDRESS,
    HEAD_SECONDS,
    MAX_HEAD_BYTES,
    MAX_HEADERS,
)

if TYPE_CHECKING:
    import cluster_processes as _processes  # (for the types: at run time it is loaded by its path)
else:
    _processes = helper("cluster_processes")
pytestmark = pytest.mark.slow

PLAYER_ADDRESS = "127.0.0.2"
"""Another loopback address: the player is not the address that opened the slow connections."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[_processes.Server]:
    # Loopback is not a trusted proxy here, so its connections are capped as a client's would be.
    server = _processes.Server(
        f"sqlite:///{tmp_path}/edge.db", redis=None, extra=["--forwarded-allow-ips", "10.255.255.1"]
    )
    try:
        yield server
    finally:
        server.stop()


def port_of(server: _processes.Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def resident_kb(server: _processes.Server) -> int:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0])


def answer_of(sock: socket.socket) -> bytes:
    got = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(4096):
            got += chunk
    return got


def send_a_megabyte_head(server: _processes.Server) -> bytes:
    """Send a request whose one header is a megabyte long; return the answer."""
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: parlour\r\nX-Big: ")
        with contextlib.suppress(OSError):  # the server closes as soon as it has refused
            for _ in range(1024):
                sock.sendall(b"a" * 1024)
        return answer_of(sock)


def test_a_megabyte_of_headers_is_refused_431_and_the_memory_stays(served: _processes.Server) -> None:
    # Warmed up first (the first requests of a new process load and allocate what any request needs).
    assert httpx.get(f"{served.url}/healthz", timeout=10).status_code == 200
    send_a_megabyte_head(served)
    before = resident_kb(served)
    for _ in range(10):
        answer = send_a_megabyte_head(served)
        assert answer.startswith(b"HTTP/1.1 431 ") and b'"headers_too_large"' in answer
    # Ten megabytes were sent; what the process kept of them is a small part of one.
    assert resident_kb(served) - before < 2 * 1024
    many = b"".join(b"X-%d: 1\r\n" % n for n in range(MAX_HEADERS + 10))
    with socket.create_connection(("127.0.0.1", port_of(served)), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: parlour\r\n" + many + b"\r\n")
        assert answer_of(sock).startswith(b"HTTP/1.1 431 ")
    fine = b"".join(b"X-%d: %s\r\n" % (n, b"v" * 100) for n in range(60))  # 7 kB in 60 headers: fine
    assert len(fine) < MAX_HEAD_BYTES
    with socket.create_connection(("127.0.0.1", port_of(served)), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: parlour\r\nConnection: close\r\n" + fine + b"\r\n")
        assert answer_of(sock).startswith(b"HTTP/1.1 200 ")
    assert httpx.get(f"{served.url}/healthz", timeout=10).status_code == 200


@pytest.mark.timeout(60)
def test_a_head_that_dribbles_in_is_cut(served: _processes.Server) -> None:
    with socket.create_connection(("127.0.0.1", port_of(served)), timeout=HEAD_SECONDS + 10) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        for _ in range(3):  # a byte now and then does not keep it open
            time.sleep(1)
            sock.sendall(b"X")
        assert answer_of(sock) == b""
        assert HEAD_SECONDS - 1 <= time.monotonic() - started <= HEAD_SECONDS + 5


@pytest.mark.timeout(90)
def test_a_thousand_slow_connections_leave_a_player_free_to_play(served: _processes.Server) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    slow: list[socket.socket] = []
    refused = 0
    try:
        for _ in range(1100):
            sock = socket.create_connection(("127.0.0.1", port_of(served)), timeout=10)
            try:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: parlour\r\n")  # and never the rest
            except OSError:
                refused += 1
            slow.append(sock)
        # The player, from another address: a page, a new game and a move, answered at once.
        transport = httpx.HTTPTransport(local_address=PLAYER_ADDRESS)
        with httpx.Client(base_url=served.url, transport=transport, timeout=10) as player:
            assert player.get("/").status_code == 200
            game = player.post("/api/games/tripeaks", json={"code": "TP1-E-AAAAAAB"}).json()["game"]
            token = player.cookies["parlour_token"]
        with socket.create_connection(
            ("127.0.0.1", port_of(served)), source_address=(PLAYER_ADDRESS, 0)
        ) as raw, connect(
            f"{served.ws}/ws/{game}", sock=raw, open_timeout=10,
            additional_headers={"Cookie": f"parlour_token={token}", "Origin": served.url},
        ) as page:  # fmt: skip
            page.send('{"type": "hello", "v": null}')
            assert '"state"' in page.recv(timeout=10)
            page.send('{"type": "action", "action": {"move": "draw"}, "ref": 1}')
            while '"ack"' not in (message := page.recv(timeout=10)):
                assert '"error"' not in message, message
        # All but the capped few of the slow connections were answered 503 and closed at once.
        answered = sum(_readable(sock) for sock in slow)
        assert answered >= 1100 - CONNECTIONS_PER_ADDRESS - refused
    finally:
        for sock in slow:
            sock.close()
    assert any("connection from 127.0.0.1 was refused" in line for line in served.log)


def _readable(sock: socket.socket) -> bool:
    try:
        return bool(sock.recv(64, socket.MSG_DONTWAIT | socket.MSG_PEEK))
    except BlockingIOError:
        return False
    except OSError:
        return True
