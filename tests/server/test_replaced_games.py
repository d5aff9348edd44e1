"""A game replaced by a newer one (dealt in another tab, or on another server process) tells its open
pages that it has ended: an ``ended`` message and the socket closed with 4410, never ``not_saved``, no
reload and no warning, in both games; the new game is unharmed."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conftest import new_store
from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.server.wire.protocol import CLOSE_ENDED


def deal(client: TestClient, kind: str) -> str:
    response = client.post(f"/api/games/{kind}", json={"speed": "instant"} if kind == "thirteen" else {})
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game"]
    return game_id


def hello(socket: Any) -> dict[str, Any]:
    socket.send_json({"type": "hello", "v": None})
    state: dict[str, Any] = socket.receive_json()
    assert state["type"] == "state"
    return state


def until_ended(socket: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Read a page's socket to its end: every message, and the close code."""
    seen = []
    try:
        while True:
            seen.append(socket.receive_json())
    except WebSocketDisconnect as closed:
        return seen, closed.code


def first_move(socket: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Return a move the page may make now: TriPeaks draws; at Thirteen the page waits for its turn (the
    computer players move at once) and makes its first legal move (a pass is a move too)."""
    if state["view"].get("stock") is not None:
        return {"move": "draw"}
    view = state["view"]
    while view["turn"] != view["seat"]:
        message = socket.receive_json()
        view = message.get("view") or view
    socket.send_json({"type": "legal", "ref": 1})
    move = socket.receive_json()["moves"][0]
    return {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}


@pytest.mark.parametrize("kind", ["tripeaks", "thirteen"])
def test_a_new_game_in_another_tab_ends_the_old_games_page(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = new_store(tmp_path / "parlour.db")
    app = create_app(store, games=default_registry())
    with TestClient(app) as client:
        old = deal(client, kind)
        with client.websocket_connect(f"/ws/{old}?lang=fr") as socket:
            state = hello(socket)
            with caplog.at_level(logging.INFO, logger="parlour.server"):
                new = deal(client, kind)  # the other tab
                seen, code = until_ended(socket)
        # (Thirteen's computer players may have moved first: their events come before the end.)
        *events, ended = seen
        assert all(message["type"] == "event" for message in events), seen
        last = events[-1]["v"] if events else state["v"]
        assert ended == {"type": "ended", "code": "game_ended", "v": last}
        assert code == CLOSE_ENDED
        assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
        # Opening the old game again says the same at once; the new game plays on.
        with client.websocket_connect(f"/ws/{old}") as socket:
            socket.send_json({"type": "hello", "v": None})
            seen, code = until_ended(socket)
            assert [message["type"] for message in seen] == ["state", "ended"] and code == CLOSE_ENDED
            assert seen[0]["game"] == old
        with client.websocket_connect(f"/ws/{new}") as socket:
            assert hello(socket)["game"] == new
        assert store.game_record(old, store.all_players()[0].id).status == "left"


@pytest.mark.parametrize("kind", ["tripeaks", "thirteen"])
def test_a_game_replaced_on_another_process_is_ended_at_its_next_action(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two server processes on one database: the page on the first keeps its live game, the player
    deals a new game through the second; the first page's next action is answered ``game_ended``
    (translated), then ``ended``, and nothing is reloaded, retried or logged as a warning."""
    path = tmp_path / "parlour.db"
    first = create_app(new_store(path), games=default_registry())
    second = create_app(new_store(path), games=default_registry())
    with TestClient(first) as one, TestClient(second) as two:
        old = deal(one, kind)
        with one.websocket_connect(f"/ws/{old}?lang=fr") as socket:
            action = first_move(socket, hello(socket))
            two.cookies.update(one.cookies)
            deal(two, kind)
            with caplog.at_level(logging.INFO, logger="parlour.server"):
                socket.send_json({"type": "action", "action": action, "ref": 7})
                seen, code = until_ended(socket)
        types = [message["type"] for message in seen]
        assert types == ["error", "ended"], seen
        error = seen[0]
        assert error["code"] == "game_ended" and error["ref"] == 7
        assert error["message"].startswith("Cette partie")
        assert code == CLOSE_ENDED
        assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
