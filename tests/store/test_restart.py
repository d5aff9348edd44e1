"""kill -9: the real ``parlour serve`` process is killed mid-game and restarted; no acknowledged move is lost.

The test plays a numbered TriPeaks game over the WebSocket protocol (docs/protocol.md), sends a burst of
moves, kills the server with SIGKILL as soon as some of them are acknowledged (others are still in
flight), restarts it on the same database and checks that every acknowledged move is in the game's
record, that the game resumes in the restarted server, and that winning it there updates the record.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from parlour.store import Store

from .conftest import FreshDatabases
from .lines import code_of, winning_line

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NUMBER = 6
LISTENING = re.compile(r"running on (http://[\d.]+:\d+)")


@contextmanager
def server(url: str, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Run ``parlour serve --port 0`` on the database ``url``; yield the process and its address."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PARLOUR_DATABASE_URL": url}
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "parlour", "serve", "--port", "0"], env=env, stdout=output, stderr=output
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            found = LISTENING.search(log.read_text(errors="replace"))
            if found:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {log.read_text(errors='replace')}")
            time.sleep(0.05)
        address = found.group(1)
        _wait_until_serving(address)
        yield process, address
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def _wait_until_serving(address: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(address + "/static/css/parlour.css", timeout=2)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def socket_to(address: str, game_id: str, token: str) -> ClientConnection:
    ws_address = address.replace("http://", "ws://") + f"/ws/{game_id}?lang=en"
    return connect(ws_address, additional_headers={"Cookie": f"parlour_token={token}"}, open_timeout=10)


def receive(connection: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(connection.recv(timeout=10))
    return message


def test_kill_9_loses_no_acknowledged_move(fresh: FreshDatabases, backend: str, tmp_path: Path) -> None:
    url = fresh.url(backend).render_as_string(hide_password=False)
    line = winning_line(code_of(NUMBER))
    assert line is not None
    burst = list(line[:30])
    acknowledged: list[str] = []

    with server(url, tmp_path / "first.log") as (process, address):
        with httpx.Client(base_url=address) as browser:
            browser.post("/api/player")
            token = browser.cookies["parlour_token"]
            created = browser.post("/api/games/tripeaks", json={"rules": "easy", "number": NUMBER})
            assert created.status_code == 201, created.text
            game_id = created.json()["game"]
        with socket_to(address, game_id, token) as connection:
            connection.send(json.dumps({"type": "hello", "v": None}))
            assert receive(connection)["type"] == "state"
            for ref, move in enumerate(burst):  # all at once: some will be in flight at the kill
                connection.send(json.dumps({"type": "action", "action": {"move": move}, "ref": ref}))
            while len(acknowledged) < 12:
                message = receive(connection)
                assert message["type"] in ("event", "ack"), message
                if message["type"] == "ack":
                    assert message["ref"] == len(acknowledged)
                    acknowledged.append(burst[message["ref"]])
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)

    store = Store(url)
    player = store.player_by_token(token)
    assert player is not None
    stored = store.game_record(game_id, player.player_id).moves
    assert stored[: len(acknowledged)] == acknowledged, "an acknowledged move was lost"
    assert stored == burst[: len(stored)]  # nothing else, in order
    store.close()

    with server(url, tmp_path / "second.log") as (_process, address):
        with socket_to(address, game_id, token) as connection:
            connection.send(json.dumps({"type": "hello", "v": None}))
            state = receive(connection)
            # A commit already sent when the process died may land after the read above (PostgreSQL
            # finishes it without its client): such a move was never acknowledged, and keeping it is
            # right. The restarted game is exactly what the database holds now.
            store = Store(url)
            now_stored = store.game_record(game_id, player.player_id).moves
            store.close()
            assert now_stored[: len(stored)] == stored and now_stored == burst[: len(now_stored)]
            assert state["type"] == "state" and state["view"]["moves"] == len(now_stored)
            rest = list(line[len(now_stored) :])
            for ref, move in enumerate(rest):
                connection.send(json.dumps({"type": "action", "action": {"move": move}, "ref": ref}))
            acks = 0
            while acks < len(rest):
                message = receive(connection)
                assert message["type"] in ("event", "ack"), message
                acks += message["type"] == "ack"
        with httpx.Client(base_url=address, cookies={"parlour_token": token}) as browser:
            outcome = browser.get(f"/api/games/{game_id}/outcome")
            assert outcome.status_code == 200, outcome.text
            assert outcome.json()["outcome"]["status"] == "won"
            assert outcome.json()["messages"] == [f"You are the first to win game #{NUMBER}!"]
            assert (
                f"Won in {len(line)} moves" in browser.get("/tripeaks/numbered", params={"game": NUMBER}).text
            )
