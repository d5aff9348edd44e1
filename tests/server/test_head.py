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
    refused = site_client.head("/api/games/tripeaks")  # a POST only: made by an action, never by a look
    assert refused.status_code == 405 and refused.content == b""
    assert "set-cookie" not in refused.headers
    nobody = site_client.head("/api/player")  # looking for the player makes none
    assert nobody.status_code == 404 and "set-cookie" not in nobody.headers
    assert store.all_players() == []


def test_the_access_log_says_head(site_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("parlour.access")  # "parlour" may not propagate: listen on it directly
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.DEBUG, logger="parlour.access"):
            site_client.head("/healthz")
            site_client.head("/rules/tripeaks")
    finally:
        logger.removeHandler(caplog.handler)
    # (a record reaches the capture once or twice, as "parlour" propagates or not)
    records = list({id(r): r for r in caplog.records if r.name == "parlour.access"}.values())
    [probe, page] = records
    assert probe.getMessage().startswith("HEAD /healthz 200") and probe.levelno == logging.DEBUG
    assert page.getMessage().startswith("HEAD /rules/{game} 200") and page.levelno == logging.INFO
