"""A failing database never wedges a game: moves are applied only once durable, and the game recovers.

Faults are injected three ways: a TCP relay in front of PostgreSQL that is cut and restored (a real
outage: connections die, new ones are refused), a deleted SQLite file, and writes that fail (or commit
and then report a failure) for a while. Every case ends with the live game equal to its record.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import URL

from parlour.games.registry import Registry
from parlour.server.app import create_app
from parlour.store import Store, StoreUnavailable
from parlour.store.async_appends import AsyncAppends
from parlour.tripeaks import Game
from parlour.tripeaks.definition import TriPeaksDefinition

from .conftest import BACKENDS, FreshDatabases
from .lines import code_of, winning_line

CODE = code_of(2)


class Relay:
    """A TCP relay on 127.0.0.1 to a target port; ``cut()`` drops every connection and refuses new
    ones until ``restore()``."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = True
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                if not self.open:  # cut while this connection was being made
                    client.close()
                    server.close()
                    continue
                self.pairs.append((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while (data := source.recv(65536)) and self.open:
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            self.open = False
            for pair in self.pairs:
                for end in pair:
                    # A pump may have shut an end down already (shutdown then fails): close it anyway,
                    # or the socket is left for the garbage collector to warn about in a later test.
                    with contextlib.suppress(OSError):
                        end.shutdown(socket.SHUT_RDWR)
                    end.close()
            self.pairs.clear()

    def restore(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def client_for(store: Store) -> TestClient:
    return TestClient(create_app(store, games=Registry([TriPeaksDefinition()]), routers=[]))


def start(client: TestClient) -> tuple[str, Any]:
    response = client.post("/api/games/tripeaks", json={"code": CODE})
    assert response.status_code == 201, response.text
    return response.json()["game"], client


def act(socket_: Any, ref: int, move: str) -> list[dict[str, Any]]:
    """Send a move; return the messages up to its ack or error."""
    socket_.send_json({"type": "action", "action": {"move": move}, "ref": ref})
    messages = []
    while True:
        message = socket_.receive_json()
        messages.append(message)
        if message.get("ref") == ref and message["type"] in ("ack", "error"):
            return messages


def record_matches_memory(store: Store, client: TestClient, game_id: str) -> None:
    """The live game's view is the view of its stored moves replayed."""
    player = store.player_by_token(client.cookies["parlour_token"])
    assert player is not None
    record = store.game_record(game_id, player.id)
    replayed = Game.from_code(record.code)
    for move in record.moves:
        replayed.apply(move)
    live = client.app.state.parlour.live.get(game_id)  # type: ignore[attr-defined]
    assert live.game.game.view() == replayed.view()
    assert live.moves_recorded == len(record.moves)


@pytest.fixture
def databases(tmp_path: Path) -> Iterator[FreshDatabases]:
    made = FreshDatabases(tmp_path)
    yield made
    made.drop()


@pytest.mark.postgres
def test_a_postgresql_outage_refuses_moves_clearly_and_the_game_goes_on_after_it(
    databases: FreshDatabases,
) -> None:
    url: URL = databases.url("postgresql")
    relay = Relay(url.port or 5432)
    try:
        store = Store(url.set(host="127.0.0.1", port=relay.port))
        line = winning_line(CODE)
        assert line is not None
        with client_for(store) as client:
            game_id, _ = start(client)
            with client.websocket_connect(f"/ws/{game_id}?lang=fr") as ws:
                ws.send_json({"type": "hello", "v": None})
                assert ws.receive_json()["v"] == 0
                assert act(ws, 1, line[0])[-1]["type"] == "ack"
                relay.cut()
                refused = act(ws, 2, line[1])
                assert [m["type"] for m in refused] == ["error"]
                assert refused[-1]["code"] == "not_saved" and "enregistré" in refused[-1]["message"]
                ws.send_json({"type": "hello", "v": None})
                assert ws.receive_json()["v"] == 1  # nothing of the refused move happened
                relay.restore()
                done = act(ws, 3, line[1])
                assert done[-1]["type"] == "ack" and done[-1]["v"] == 2
            record_matches_memory(store, client, game_id)
        store.close()
    finally:
        relay.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_short_outage_only_delays_a_move_and_a_long_one_is_refused(
    databases: FreshDatabases, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(databases.url(backend))
    line = winning_line(CODE)
    assert line is not None
    real = store.append_moves_many
    failures = {"left": 0}

    def flaky(batch: Any, epochs: Any = None) -> Any:
        if failures["left"] > 0:
            failures["left"] -= 1
            raise StoreUnavailable("injected: the database is away")
        return real(batch, epochs)

    monkeypatch.setattr(store, "append_moves_many", flaky)
    # On PostgreSQL the server writes a batch from its event loop, and only the rest in a thread.
    real_at_once = AsyncAppends.write

    async def flaky_at_once(self: AsyncAppends, plan: Any, seconds: float) -> bool:
        if failures["left"] > 0:
            failures["left"] -= 1
            raise StoreUnavailable("injected: the database is away")
        return await real_at_once(self, plan, seconds)

    monkeypatch.setattr(AsyncAppends, "write", flaky_at_once)
    monkeypatch.setattr("parlour.server.persistence.RETRY_PAUSES", (0.01, 0.01, 0.01))
    with client_for(store) as client:
        game_id, _ = start(client)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.send_json({"type": "hello", "v": None})
            ws.receive_json()
            failures["left"] = 2  # fewer than the retries: the page sees nothing but the ack
            assert act(ws, 1, line[0])[-1]["type"] == "ack"
            failures["left"] = 99
            refused = act(ws, 2, line[1])
            assert refused[-1]["code"] == "not_saved" and refused[-1]["message"].startswith("Your move")
            failures["left"] = 0
            assert act(ws, 3, line[1])[-1]["type"] == "ack"
        record_matches_memory(store, client, game_id)
    store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_write_that_committed_but_failed_to_answer_is_reconciled_from_the_record(
    databases: FreshDatabases, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(databases.url(backend))
    line = winning_line(CODE)
    assert line is not None
    real = store.append_moves_many
    lose_answer = {"once": False}

    def committed_then_failed(batch: Any, epochs: Any = None) -> Any:
        result = real(batch, epochs)
        if lose_answer["once"]:
            lose_answer["once"] = False
            raise StoreUnavailable("injected: the answer of a committed write was lost")
        return result

    monkeypatch.setattr(store, "append_moves_many", committed_then_failed)
    real_at_once = AsyncAppends.write

    async def committed_then_failed_at_once(self: AsyncAppends, plan: Any, seconds: float) -> bool:
        written = await real_at_once(self, plan, seconds)
        if written and lose_answer["once"]:
            lose_answer["once"] = False
            raise StoreUnavailable("injected: the answer of a committed write was lost")
        return written

    monkeypatch.setattr(AsyncAppends, "write", committed_then_failed_at_once)
    monkeypatch.setattr("parlour.server.persistence.RETRY_PAUSES", ())
    with client_for(store) as client:
        game_id, _ = start(client)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.send_json({"type": "hello", "v": None})
            ws.receive_json()
            lose_answer["once"] = True
            assert act(ws, 1, line[0])[-1]["code"] == "not_saved"  # stored, but the server cannot know
            # The page retries the same move: the store sees it is already there and agrees.
            assert act(ws, 2, line[0])[-1]["type"] == "ack"
            lose_answer["once"] = True
            assert act(ws, 3, line[1])[-1]["code"] == "not_saved"
            # A different move now: the record disagrees with memory, so the game is reloaded from it.
            messages = act(ws, 4, "undo")
            assert any(m["type"] == "state" for m in messages) and messages[-1]["code"] == "not_saved"
            assert act(ws, 5, line[2])[-1]["type"] == "ack"
        record_matches_memory(store, client, game_id)
    store.close()


def test_a_deleted_sqlite_file_is_reported_not_acknowledged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "parlour.sqlite3"
    store = Store(f"sqlite:///{path}")
    monkeypatch.setattr("parlour.server.persistence.RETRY_PAUSES", ())
    line = winning_line(CODE)
    assert line is not None
    with client_for(store) as client:
        game_id, _ = start(client)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.send_json({"type": "hello", "v": None})
            ws.receive_json()
            assert act(ws, 1, line[0])[-1]["type"] == "ack"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            refused = act(ws, 2, line[1])
            assert refused[-1]["code"] == "not_saved" and "gone" in refused[-1]["detail"]
            ws.send_json({"type": "hello", "v": None})
            assert ws.receive_json()["v"] == 1
    with pytest.raises(StoreUnavailable, match="gone"):
        store.create_player()
    store.close()


def test_a_finished_game_answers_with_its_final_state(tmp_path: Path) -> None:
    """The page whose winning move was committed but whose event was lost reconnects to the end of its
    game, not to "no such game"."""
    store = Store(f"sqlite:///{tmp_path / 'parlour.sqlite3'}")
    line = winning_line(CODE)
    assert line is not None
    with client_for(store) as client:
        game_id, _ = start(client)
        player = store.player_by_token(client.cookies["parlour_token"])
        assert player is not None
        store.append_moves(game_id, player.id, 0, line)  # written, and no page saw the events
        store.finish_game(game_id, player.id)
        token = client.cookies["parlour_token"]
    with client_for(store) as again:
        again.cookies.set("parlour_token", token)
        with again.websocket_connect(f"/ws/{game_id}") as ws:
            ws.send_json({"type": "hello", "v": None})
            state = ws.receive_json()
            assert state["type"] == "state" and state["view"]["status"] == "won"
            ws.send_json({"type": "action", "action": {"move": "draw"}, "ref": 1})
            assert ws.receive_json()["code"] == "game_over"
    store.close()
