"""HEAD is answered wherever GET is (RFC 9110, 9.3.2): the same status and headers, no body. Load
balancers, uptime checks and link checkers send it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conftest import new_store
from parlour.games.registry import default_registry
from parlour.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(new_store(tmp_path / "head.db"), games=default_registry()))


PAGES = (
    "/",
    "/tripeaks",
    "/thirteen",
    "/tripeaks/numbered",
    "/healthz",
    "/readyz",
    "/static/css/parlour.css",
)


@pytest.mark.parametrize("path", PAGES)
def test_head_answers_as_get_without_the_body(client: TestClient, path: str) -> None:
    plain = {"Accept-Encoding": "identity"}  # so that the length is the body's as read
    with client:
        got = client.get(path, headers=plain)
        head = client.head(path, headers=plain)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == got.headers["content-length"] == str(len(got.content))
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]


def test_head_changes_nothing_a_get_would_not_and_keeps_its_errors(client: TestClient) -> None:
    with client:
        assert client.head("/no/such/page").status_code == 404
        refused = client.head("/api/player")  # a POST only: made by an action, never by a look
        assert refused.status_code == 405 and refused.content == b""
        assert "set-cookie" not in refused.headers
        assert client.app.state.parlour.store.all_players() == []  # type: ignore[attr-defined]


def test_the_access_log_says_head(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with client, caplog.at_level(logging.INFO, logger="parlour.access"):
        client.head("/healthz")
    [line] = [r.getMessage() for r in caplog.records if r.name == "parlour.access"]
    assert line.startswith("HEAD /healthz 200")
