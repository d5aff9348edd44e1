"""Limits: rate limits on players, games and hints, sockets per game, one open game per player under
parallel requests, and idle games leaving memory (restored from their records on demand)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conftest import new_store
from parlour.games.registry import Registry
from parlour.server.app import create_app
from parlour.server.edge.limits import MAX_SOCKETS, RateLimited, RateLimits
from parlour.tripeaks.definition import TriPeaksDefinition

GAMES = Registry([TriPeaksDefinition()])
T = TypeVar("T")


def app_with(tmp_path: Path, **rules: str) -> tuple[Any, Any]:
    store = new_store(tmp_path / "limits.db")
    return create_app(store, games=GAMES, routers=[], limits=RateLimits(rules)), store


def test_page_views_make_no_player_and_new_players_per_address_are_limited(tmp_path: Path) -> None:
    app, store = app_with(tmp_path, new_player="3/minute")
    with TestClient(app) as client:
        # A crawler, a health check or an office behind one address: pages, and nobody is made.
        for _ in range(100):
            client.cookies.clear()
            assert client.get("/").status_code == 200
        for path in ("/tripeaks", "/tripeaks?number=5&rules=easy", "/tripeaks/numbered"):
            client.cookies.clear()
            page = client.get(path)
            assert page.status_code == 200 and "parlour_token" not in page.cookies, path
        assert store.all_players() == []
        # The page's script deals the first game, which makes the player.
        for _ in range(3):
            client.cookies.clear()
            assert client.post("/api/games/tripeaks", json={}).status_code == 201
        client.cookies.clear()
        refused = client.post("/api/player?lang=fr")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        body = refused.json()
        assert body["code"] == "rate_limited" and body["message"].startswith("Trop de demandes")
        assert body["retry_after"] == int(refused.headers["retry-after"])
        assert f"dans {body['retry_after']} s." in body["message"]
    assert len(store.all_players()) == 3


def test_a_page_refused_for_too_many_requests_is_a_page_in_the_visitors_language(tmp_path: Path) -> None:
    store = new_store(tmp_path / "limits.db")
    app = create_app(store, limits=RateLimits({"find_table": "2/minute"}))
    with TestClient(app) as client:
        asked = {"accept": "text/html", "accept-language": "hu"}
        for _ in range(2):
            assert client.get("/thirteen/t/ZZZZZZ", headers=asked).status_code == 404
        refused = client.get("/thirteen/t/ZZZZZZ", headers=asked)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.headers["content-type"].startswith("text/html")
        assert '<html lang="hu"' in refused.text and "Túl sok kérés" in refused.text


def test_new_games_per_player_are_limited(tmp_path: Path) -> None:
    app, _ = app_with(tmp_path, new_game="2/minute")
    with TestClient(app) as client:
        for _ in range(2):
            assert client.post("/api/games/tripeaks", json={}).status_code == 201
        refused = client.post("/api/games/tripeaks", json={})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_hints_are_limited_with_a_translated_reason(tmp_path: Path) -> None:
    app, _ = app_with(tmp_path, hint="1/minute")
    with TestClient(app) as client:
        game_id = client.post("/api/games/tripeaks", json={"code": "TP1-E-AAAAAAB"}).json()["game"]
        with client.websocket_connect(f"/ws/{game_id}?lang=fr") as socket:
            socket.send_json({"type": "hello", "v": None})
            socket.receive_json()
            socket.send_json({"type": "hint", "ref": 1})
            assert socket.receive_json()["type"] == "hint"
            socket.send_json({"type": "hint", "ref": 2})
            refused = socket.receive_json()
            assert refused["code"] == "rate_limited" and refused["message"].startswith("Trop de demandes")
            # It says when to ask again: within the minute of the limit.
            seconds = re.search(r"réessayez dans (\d+) s\.", refused["message"])
            assert seconds is not None and 1 <= int(seconds.group(1)) <= 60, refused["message"]


def test_a_game_takes_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    app, _ = app_with(tmp_path)
    with TestClient(app) as client:
        game_id = client.post("/api/games/tripeaks", json={}).json()["game"]
        opened = [client.websocket_connect(f"/ws/{game_id}") for _ in range(MAX_SOCKETS)]
        sockets = [connection.__enter__() for connection in opened]
        for socket in sockets:
            socket.send_json({"type": "hello", "v": None})
            socket.receive_json()
        with client.websocket_connect(f"/ws/{game_id}") as extra:
            assert extra.receive_json() == {"type": "refused", "code": "too_many_connections"}
            try:
                extra.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4403
        for connection in opened:
            connection.__exit__(None, None, None)


def test_parallel_starts_leave_one_open_game(tmp_path: Path) -> None:
    app, store = app_with(tmp_path)

    async def run() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            first = await client.post("/api/player")  # makes the player and its cookie
            assert first.status_code == 201
            client.cookies = first.cookies
            answers = await asyncio.gather(*(client.post("/api/games/tripeaks", json={}) for _ in range(10)))
            return [answer.status_code for answer in answers]

    # A loop of its own in a thread of its own, whatever else (a browser test's loop) runs here.
    with TestClient(app), ThreadPoolExecutor(1) as thread:
        statuses = thread.submit(asyncio.run, run()).result()
    assert statuses == [201] * 10
    [player] = store.all_players()
    assert len(store.open_games(player.player_id, "tripeaks")) == 1


def test_idle_games_leave_memory_and_come_back_from_their_records(tmp_path: Path) -> None:
    app, _ = app_with(tmp_path)
    with TestClient(app) as client:
        game_id = client.post("/api/games/tripeaks", json={"code": "TP1-E-AAAAAAB"}).json()["game"]
        with client.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            socket.receive_json()
            socket.send_json({"type": "action", "action": {"move": "draw"}, "ref": 1})
            while socket.receive_json()["type"] != "ack":
                pass
            live = app.state.parlour.live
            assert live.evict_idle(0) == 0  # a connected game stays
        assert live.evict_idle(0) == 1 and len(live) == 0
        with client.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            view = socket.receive_json()["view"]
            assert view["moves"] == 1 and view["stock"] == 22


REDIS = os.environ.get("PARLOUR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def run_apart(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to its end on an event loop of its own thread (a browser test's Playwright
    may have left a loop running in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def test_processes_sharing_a_redis_share_their_counters() -> None:
    """Two server processes with one Redis count one client's requests together: spreading them over
    the processes gains nothing."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        with Redis.from_url(REDIS, socket_connect_timeout=2) as client:
            client.ping()
    except RedisError as error:
        pytest.skip(f"Redis at {REDIS} unreachable: {error}")
    first = RateLimits({"new_table": "3/minute"}, redis_url=REDIS)
    second = RateLimits({"new_table": "3/minute"}, redis_url=REDIS)
    key = secrets.token_hex(8)  # a client no other test run has counted

    async def requests() -> int:
        for limits in (first, second, first):
            await limits.hit("new_table", key)
        with pytest.raises(RateLimited) as refused:
            await second.hit("new_table", key)
        await RateLimits({"new_table": "3/minute"}).hit("new_table", key)  # a lone process counts alone
        await first.close()
        await second.close()
        return refused.value.retry_after

    assert 1 <= run_apart(requests) <= 61


def test_an_unreachable_redis_leaves_the_counting_to_the_process(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Redis out of reach the process counts alone (one warning for the outage, no traceback): the
    limits still hold for what reaches this process."""
    # ``parlour serve`` run in this worker by an earlier test keeps Parlour's logs to its own handler.
    monkeypatch.setattr(logging.getLogger("parlour"), "propagate", True)
    limits = RateLimits({"new_table": "2/minute"}, redis_url="redis://127.0.0.1:1/0")

    async def requests() -> int:
        for _ in range(2):
            await limits.hit("new_table", "someone")
        with pytest.raises(RateLimited) as refused:
            await limits.hit("new_table", "someone")
        await limits.hit("new_table", "someone else")
        await limits.close()
        return refused.value.retry_after

    with caplog.at_level(logging.INFO, logger="parlour.server"):
        assert 1 <= run_apart(requests) <= 61
    # Only the limits' own: a task another test of this worker left behind may log as it ends.
    warnings = [
        record for record in caplog.records if record.levelno >= logging.WARNING and record.module == "limits"
    ]
    assert len(warnings) == 1 and not warnings[0].exc_info, [record.getMessage() for record in warnings]


def test_puzzle_answers_and_tried_moves_per_player_are_limited(tmp_path: Path) -> None:
    import re

    app, store = app_with(tmp_path, puzzle="2/minute", try_again="1/minute")
    with TestClient(app) as client:
        page = client.get("/tripeaks/puzzles").text
        found = re.search(r'"puzzle": "([0-9a-f]{16})"', page)
        assert found is not None
        puzzle = store.puzzle("tripeaks", found.group(1))
        address = f"/api/puzzles/tripeaks/{puzzle.puzzle_id}/answer"
        for _ in range(2):
            assert client.post(address, json={"move": puzzle.answer}).status_code == 200
        refused = client.post(address, json={"move": puzzle.answer})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        me = store.player_by_token(client.cookies["parlour_token"])
        assert me is not None
        game_id = store.start_game(me.player_id, "tripeaks", "easy", "TP1-E-AAAAAAB", ["human"])
        store.finish_game(game_id, me.player_id)
        tried = f"/api/tripeaks/review/{game_id}/try"
        assert client.post(tried, json={"at": 0, "moves": []}).status_code == 200
        assert client.post(tried, json={"at": 0, "moves": []}).status_code == 429
