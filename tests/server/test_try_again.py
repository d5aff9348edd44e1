"""Try again from here over HTTP (issue 53): only your own finished game, from any point of it, each
move checked (an illegal one is named by its index), nothing kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.store import Store
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.rules import EASY


@pytest.fixture
def app_client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, games=default_registry())) as test_client:
        yield test_client


def test_only_your_finished_game_and_only_legal_moves(app_client: TestClient, store: Store) -> None:
    app_client.post("/api/player")
    me = store.player_by_token(app_client.cookies["parlour_token"])
    assert me is not None
    code = str(DealCode(6, EASY))
    open_game = store.start_game(me.player_id, "tripeaks", "easy", code, ["human"])
    address = f"/api/tripeaks/review/{open_game}/try"
    assert app_client.post(address, json={"at": 0, "moves": []}).status_code == 409  # still played
    store.append_moves(open_game, me.player_id, 0, ["draw"])
    store.finish_game(open_game, me.player_id)
    tried = app_client.post(address, json={"at": 1, "moves": []})
    assert tried.status_code == 200
    body = tried.json()
    game = Game.from_code(code)
    game.apply("draw")
    assert body["legal"] == game.legal_actions() and body["position"]["stock"] == game.stock_count
    assert body["verdict"]["words"]
    wrong = app_client.post(address, json={"at": 1, "moves": [game.legal_actions()[0], "ZZ"]})
    assert wrong.status_code == 400 and wrong.json()["index"] == 1
    assert app_client.post(address, json={"at": -1}).status_code == 400
    assert app_client.post(address, json={"at": 0, "moves": ["draw"] * 301}).status_code == 400
    with TestClient(app_client.app) as stranger:
        stranger.post("/api/player")
        assert stranger.post(address, json={"at": 0, "moves": []}).status_code == 404
    assert list(store.game_record(open_game, me.player_id).moves) == ["draw"]  # nothing of a try is kept
