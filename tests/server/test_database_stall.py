"""A PostgreSQL that stops answering with its connections left open (a relay that stops passing bytes):
moves, pages and new games are refused with ``not_saved`` / 503 within the documented few seconds
instead of waiting for the stall to end; nothing acknowledged is lost, nothing unacknowledged is kept,
and play resumes when the database answers again."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from conftest import helper
from parlour.server.persistence import REQUEST_SECONDS
from parlour.store import Store

_processes = helper("cluster_processes")
_relay = helper("tcp_relay")
pytestmark = [pytest.mark.slow, pytest.mark.postgres]
ANSWER_SECONDS = 12
"""How long the test waits for any answer: far less than the stall, far more than the server needs."""


@pytest.fixture
def stalling() -> Iterator[tuple[Any, Any, str]]:
    """A server whose database is reached through a relay the test can stall; and the direct URL."""
    with _processes.postgres_schema() as url:
        direct = url.render_as_string(hide_password=False)
        with _relay.relay_to(url.host or "127.0.0.1", url.port or 5432) as relay:
            relayed = url.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
            server = _processes.Server(relayed, redis=None)
            try:
                yield server, relay, direct
            finally:
                relay.resume()
                server.stop()


def answer(socket: ClientConnection, ref: int) -> dict[str, Any]:
    """The reply to the message ``ref`` (events before it are passed over)."""
    deadline = time.monotonic() + ANSWER_SECONDS
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message.get("ref") == ref and message["type"] in ("ack", "error"):
            return message


def test_a_stalled_database_gives_not_saved_in_seconds_and_play_resumes(
    stalling: tuple[Any, Any, str],
) -> None:
    server, relay, direct = stalling
    http = httpx.Client(base_url=server.url, timeout=ANSWER_SECONDS)
    made = http.post("/api/games/tripeaks?lang=hu", json={"code": "TP1-E-AAAAAAB"})
    assert made.status_code == 201
    game_id = made.json()["game"]
    cookie = f"parlour_token={http.cookies['parlour_token']}"
    link = f"{server.ws}/ws/{game_id}?lang=hu"
    with connect(link, additional_headers={"Cookie": cookie}, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello", "v": None}))
        assert json.loads(socket.recv(timeout=ANSWER_SECONDS))["type"] == "state"
        socket.send(json.dumps({"type": "action", "action": {"move": "draw"}, "ref": 1}))
        assert answer(socket, 1)["type"] == "ack"

        relay.stall()
        socket.send(json.dumps({"type": "action", "action": {"move": "draw"}, "ref": 2}))
        refused = answer(socket, 2)  # answered while the database still says nothing
        assert refused["type"] == "error" and refused["code"] == "not_saved", refused
        assert refused["message"] == "A lépésedet nem sikerült menteni. Próbáld újra."
        # Every page, whatever number of store calls it makes, within the request's budget (decision:
        # docs/security.md): not one call's deadline after another.
        for path in ("/tripeaks", "/stats", "/player", "/tripeaks/numbered", "/tripeaks/daily"):
            started = time.monotonic()
            assert http.get(path).status_code == 503, path
            assert time.monotonic() - started < REQUEST_SECONDS + 1.5, path
        assert http.post("/api/games/tripeaks", json={}).status_code == 503

        relay.resume()
        socket.send(json.dumps({"type": "action", "action": {"move": "draw"}, "ref": 3}))
        assert answer(socket, 3)["type"] == "ack"
        socket.send(json.dumps({"type": "hello", "v": None}))
        view = json.loads(socket.recv(timeout=ANSWER_SECONDS))["view"]
    http.close()
    assert view["stock"] == 23 - 2 and view["moves"] == 2  # the refused draw was not made
    store = Store(direct)
    try:
        [player] = store.all_players()
        assert list(store.game_record(game_id, player.id).moves) == ["draw", "draw"]
    finally:
        store.close()
    assert "Traceback" not in server.log_tail(400)
