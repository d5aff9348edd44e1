"""The pages work under their own Content-Security-Policy: no inline script, nothing from elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_every_page_runs_under_its_policy(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        for path in ("/", "/player", "/stats", "/rules/tripeaks", "/tripeaks/numbered"):
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.ok
            policy = response.headers["content-security-policy"]
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert response.headers["x-content-type-options"] == "nosniff"
        page.goto(f"{live_server.url}/tripeaks")
        page.locator("#board .card-slot.free").first.wait_for()
        moves = page.locator("#stock")
        moves.click()  # a draw: the script runs, talks over the socket and redraws
        page.locator("#discard .pile-card").nth(1).wait_for()
        page.goto(f"{live_server.url}/thirteen")
        page.locator(".th-hand .card").nth(12).wait_for()
        page.locator('[data-role="commitment"]').filter(has_text="…").wait_for()
    finally:
        context.close()
    assert not [text for text in problems if "Content Security Policy" in text or "Refused" in text], problems
