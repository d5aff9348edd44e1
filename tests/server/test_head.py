"""HEAD is answered wherever GET is (RFC 9110, 9.3.2): the same status and headers, no body. Load
balancers, uptime checks and link checkers send it."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from parlour.store import Store

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
def test_head_answers_as_get_without_the_body(site_client: TestClient, path: str) -> None:
    plain = {"Accept-Encoding": "identity"}  # so that the length is the body's as read
    got = site_client.get(path, headers=plain)
    head = site_client.head(path, headers=plain)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == got.headers["content-length"] == str(len(got.content))
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]


def test_head_changes_nothing_a_get_would_not_and_keeps_its_errors(
    site_client: TestClient, store: Store
) -> None:
    assert site_client.head("/no/such/page").status_code == 404
    refused = site_client.head("/api/player")  # a POST only: made by an action, never by a look
    assert refused.status_code == 405 and refused.content == b""
    assert "set-cookie" not in refused.headers
    assert store.all_players() == []


def test_the_access_log_says_head(site_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="parlour.access"):
        site_client.head("/healthz")
    [line] = [r.getMessage() for r in caplog.records if r.name == "parlour.access"]
    assert line.startswith("HEAD /healthz 200")
