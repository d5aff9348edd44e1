"""The round's history at the table (issue 53), on a phone: every trick so far, in order, one tap away
during play (and the R key); after the round, every hand as it was dealt and every trick."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_phone import window
from thirteen_play import play_until

pytestmark = pytest.mark.browser


def test_the_rounds_tricks_during_play_and_the_dealt_hands_after(browser: Any, live_server: Any) -> None:
    base = live_server.url
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{base}/language/en?next=/")
        assert page.request.post(f"{base}/api/thirteen/settings", data={"speed": "instant"}).ok
        made = page.request.post(
            f"{base}/api/games/thirteen", data={"code": "TH1-AAAAAAC", "strength": "greedy"}
        )
        assert made.status == 201
        page.goto(f"{base}/thirteen")
        page.wait_for_selector(".th-hand .card")
        # Play until the first trick is over: then the history holds at least it and the next.
        play_until(
            page, "document.querySelectorAll('[data-role=round-history-tricks] > li').length >= 2", "a trick"
        )
        button = page.locator('[data-action="round-history"]')
        expect(button).to_be_visible()
        button.click()
        panel = page.locator('[data-role="round-history"]')
        expect(panel).to_be_visible()
        first = panel.locator("[data-role=round-history-tricks] > li").first
        expect(first).to_contain_text("Trick 1")
        assert first.locator(".th-trick li").count() >= 2  # a play and the answers to it
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        page.keyboard.press("r")
        expect(panel).to_be_visible()
        page.keyboard.press("r")
        expect(panel).to_be_hidden()

        play_until(page, "!!document.querySelector('[data-role=result][open]')", "the round")
        dealt = page.locator('[data-role="dealt"] li')
        expect(dealt).to_have_count(4)
        for row in range(4):
            assert dealt.nth(row).locator(".th-mini").count() == 13  # every hand as it was dealt
        page.locator(".th-ended-history summary").click()
        expect(page.locator('[data-role="ended-tricks"] > li').first).to_contain_text("Trick 1")
