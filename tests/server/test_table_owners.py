"""Two processes that both think they own a table cannot both commit: each takeover raises the table's
owner epoch in the database, and every write of the table (its moves, its seats, a new match) carries
its writer's epoch, so the earlier owner is refused, lets the table go and its pages reconnect."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conftest import new_store
from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.server.wire.protocol import CLOSE_MOVED
from parlour.store import Store
from parlour.store.tables import TableMoved
from parlour.thirteen.definition import ThirteenDefinition


class Page:
    """A page at a table on one of the processes."""

    def __init__(self, client: TestClient, table_id: str, cookie: str, token: str | None = None) -> None:
        self.context = client.websocket_connect(f"/ws/table/{table_id}?lang=fr", headers={"cookie": cookie})
        self.socket = self.context.__enter__()
        self.closed = False
        OPEN.append(self)
        self.token = token
        self.ref = 0
        self.view: dict[str, Any] = {}
        self.say({"type": "hello", "v": None, "seat_token": token})
        self.until(lambda m: m["type"] == "state")

    def say(self, message: dict[str, Any]) -> None:
        self.socket.send_json(message)

    def until(self, found: Any, *, now: bool = False) -> dict[str, Any]:
        """Receive until a message ``found`` accepts (``now``: the latest view may already do)."""
        if now and found({"view": self.view}):
            return {"view": self.view}
        while True:
            message: dict[str, Any] = self.socket.receive_json()
            if message.get("view"):
                self.view = message["view"]
            if found(message):
                return message

    def act(self, **action: Any) -> dict[str, Any]:
        self.ref += 1
        self.say({"type": "action", "action": action, "ref": self.ref})
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == self.ref)

    def first_legal(self) -> dict[str, Any]:
        self.ref += 1
        self.say({"type": "legal", "ref": self.ref})
        move = self.until(lambda m: m["type"] == "legal")["moves"][0]
        return {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.context.__exit__(None, None, None)


OPEN: list[Page] = []
"""Every page a test opened: closed before its apps stop, even when the test failed."""


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, Store]]:
    """Two apps on one database and no Redis, as two processes that each believe they own a table."""
    path = tmp_path / "owners.db"
    store = new_store(path)
    with (
        TestClient(create_app(new_store(path), games=default_registry())) as first,
        TestClient(create_app(new_store(path), games=default_registry())) as second,
    ):
        yield first, second, store
        for page in OPEN:
            page.close()
        OPEN.clear()


def cookie_for(store: Store) -> str:
    return f"parlour_token={store.create_player().token}"


def test_the_earlier_owner_of_a_table_cannot_commit_and_lets_it_go(
    two_processes: tuple[TestClient, TestClient, Store],
) -> None:
    first, second, store = two_processes
    made = first.post("/api/tables", json={"name": "Ana", "settings": {"speed": "instant"}}).json()
    table_id = made["table"]
    cookies = [f"parlour_token={first.cookies['parlour_token']}"]
    # Four people, so that nothing moves unless a page moves it.
    pages = [Page(first, table_id, cookies[0], made["seat_token"])]
    for seat in (1, 2, 3):
        cookies.append(cookie_for(store))
        page = Page(first, table_id, cookies[seat])
        seated = page.act(type="sit", seat=seat, name=f"P{seat}")
        assert seated["type"] == "ack"
        page.token = seated["seat_token"]
        pages.append(page)
    assert pages[0].act(type="start")["type"] == "ack"
    for page in pages:
        page.until(lambda m: bool((m.get("view") or {}).get("hand")), now=True)
    epoch_of_first = store.table(table_id).epoch

    # The second process takes the table over (as after a lost lease) while the first still has it:
    # a friend's page in its lobby is enough.
    watcher = Page(second, table_id, cookie_for(store))
    assert store.table(table_id).epoch == epoch_of_first + 1

    turn = pages[0].view["turn"]
    refused = pages[turn].act(**pages[turn].first_legal())
    assert refused["type"] == "error" and refused["code"] == "table_moved"
    assert refused["message"] == "La table est passée sur un autre serveur\u00a0: reconnexion…"
    for page in pages:  # every page of the first process is closed, to reconnect
        with pytest.raises(WebSocketDisconnect) as closed:
            page.until(lambda m: False)
        assert closed.value.code == CLOSE_MOVED
    table = store.table(table_id)
    assert table.game_id is not None
    assert list(store.game_record(table.game_id, table.host).moves) == []  # nothing of the first's

    # The page reconnects to the process that owns the table now, and plays there.
    mover = Page(second, table_id, cookies[turn], pages[turn].token)
    assert mover.act(**mover.first_legal())["type"] == "ack"
    assert len(store.game_record(table.game_id, table.host).moves) == 1
    watcher.close()
    mover.close()


def test_a_stale_epoch_writes_nothing(tmp_path: Path) -> None:
    """The store's side: after a takeover, the earlier owner's moves, seats and new match are refused,
    and nothing of them is stored."""
    store = new_store(tmp_path / "epochs.db")
    host = store.create_player()
    player = store.player_by_token(host.token)
    assert player is not None
    record = store.create_table("thirteen", player.id, {}, [])
    old = store.claim_table(record.table_id)
    new = store.claim_table(record.table_id)
    assert new.epoch == old.epoch + 1
    definition = ThirteenDefinition()
    spec = definition.new({}).spec
    assert spec is not None
    table_spec = type(spec)(**{**spec.__dict__, "table": record.table_id})
    with pytest.raises(TableMoved):
        store.record_game(player.id, definition, table_spec, old.epoch)
    game_id = store.record_game(player.id, definition, table_spec, new.epoch)
    with pytest.raises(TableMoved):
        store.save_table(old)
    store.save_table(new)
    match = definition.restore(store.game_record(game_id, player.id)).match
    assert match.turn is not None
    legal = [str(move) for move in match.legal_moves(match.turn)]
    with pytest.raises(TableMoved):
        store.append_moves(game_id, player.id, 0, legal[:1], old.epoch)
    [refused] = store.append_moves_many([(game_id, player.id, 0, legal[:1])], {game_id: old.epoch})
    assert isinstance(refused, TableMoved)
    assert list(store.game_record(game_id, player.id).moves) == []
    assert store.append_moves(game_id, player.id, 0, legal[:1], new.epoch) == 1
