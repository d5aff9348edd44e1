"""``/healthz`` and ``/readyz``: cheap, JSON, no cookie, no player, no rate limit; ready only while the
database (and Redis, for several processes) answers."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from conftest import helper, new_store
from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.server.edge.limits import RateLimits


def test_health_and_readiness_make_nothing_and_are_never_limited(tmp_path: Path) -> None:
    store = new_store(tmp_path / "health.db")
    app = create_app(store, games=default_registry(), limits=RateLimits({"new_player": "2/minute"}))
    with TestClient(app) as client:
        for _ in range(20):
            alive = client.get("/healthz")
            assert alive.status_code == 200 and alive.json() == {"status": "ok"}
            ready = client.get("/readyz")
            assert ready.status_code == 200 and ready.json() == {"status": "ready", "database": "ok"}
            assert "set-cookie" not in ready.headers and "set-cookie" not in alive.headers
        assert store.all_players() == []


def test_a_database_that_fails_makes_the_process_not_ready(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    store = new_store(path)
    with TestClient(create_app(store, games=default_registry())) as client:
        path.unlink()  # the file is gone under the running server
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["status"] == "not_ready" and answer.json()["database"].startswith("failed")
        assert client.get("/healthz").status_code == 200


def test_a_redis_that_goes_away_makes_the_process_not_ready(tmp_path: Path) -> None:
    processes = helper("cluster_processes")
    store = new_store(tmp_path / "redis.db")
    with processes.private_redis() as redis:
        app = create_app(store, games=default_registry(), redis_url=redis.url)
        with TestClient(app) as client:
            assert client.get("/readyz").json() == {"status": "ready", "database": "ok", "redis": "ok"}
            redis.stop()
            answer = client.get("/readyz")
            assert answer.status_code == 503 and answer.json()["redis"].startswith("failed")
            assert answer.json()["database"] == "ok"
            redis.start()


def test_a_draining_process_is_not_ready_but_alive(tmp_path: Path) -> None:
    store = new_store(tmp_path / "drain.db")
    app = create_app(store, games=default_registry())
    with TestClient(app) as client:
        app.state.parlour.draining = True  # what SIGTERM does first (parlour.server.drain)
        answer = client.get("/readyz")
        assert answer.status_code == 503 and answer.json() == {"status": "draining"}
        assert client.get("/healthz").status_code == 200
