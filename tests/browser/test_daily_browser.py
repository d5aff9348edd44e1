"""The daily deal in two browsers: each person plays today's deal from its page, its code in no frame
and no page while the attempt is in play; once both attempts have ended, the leaderboard ranks them
(more cards cleared first), each page marks its own entry, and the code and salt are shown to them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from tripeaks_play import greedy_to_the_end, play_moves

from parlour.store.daily import today
from parlour.tripeaks import Game
from parlour.tripeaks.solver.solve import solve

pytestmark = pytest.mark.browser


@pytest.fixture
def second(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR", bypass_csp=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def frames_of(page: Any) -> list[str]:
    """Collect the text of every socket frame the page receives from now on."""
    seen: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: seen.append(str(frame))))
    return seen


def play_attempt(page: Any, base: str, moves: list[str]) -> None:
    """Start today's Easy deal from its page, make ``moves`` by clicking, then deal a new game (which
    ends the attempt: it counts)."""
    page.goto(f"{base}/tripeaks/daily?rules=easy")
    page.locator('form[action="/tripeaks/daily/play"] button').click()
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    play_moves(page, moves)
    page.locator("#new-game-button").click()
    page.locator("#new-game-deal").click()
    expect(page.locator("#moves")).to_have_text("0")


def test_two_people_play_todays_deal_and_are_ranked(page: Any, second: Any, live_server: Any) -> None:
    base = live_server.url
    deal = live_server.store.daily_deal("tripeaks", "easy", today())
    line = list(solve(Game.from_code(deal.code)).line or [])
    assert len(line) > 12
    first_frames, second_frames = frames_of(page), frames_of(second)
    play_attempt(page, base, line[:3])
    play_attempt(second, base, line[:12])
    secret = deal.code.split("-")[-1]
    # Before its end no frame named the deal (the frames after it, of the new game, name another).
    for frames in (first_frames, second_frames):
        assert frames and not [
            frame for frame in frames if secret in frame and '"status": "left"' not in frame
        ]
    page.goto(f"{base}/tripeaks/daily?rules=easy")
    second.goto(f"{base}/tripeaks/daily?rules=easy")
    rows = page.locator(".daily-table tbody tr")
    expect(rows).to_have_count(2)
    assert rows.nth(1).get_attribute("class") == "highlight"  # the first person cleared fewer cards
    assert "You" in (rows.nth(1).text_content() or "")
    assert second.locator(".daily-table tbody tr").nth(0).get_attribute("class") == "highlight"
    assert "Place 2 of 2." in (page.text_content("main") or "")
    # Counted, but today's code waits for the day's end (decision 0060).
    assert deal.code.split("-")[-1] not in (page.text_content("main") or "")
    assert second.evaluate("() => document.documentElement.scrollWidth") <= 360


def test_a_phones_attempt_says_why_undo_is_greyed_after_a_draw(second: Any, live_server: Any) -> None:
    page = second  # 360 px, in French
    page.goto(f"{live_server.url}/tripeaks/daily?rules=easy")
    before = "Annuler reprend une carte jouée, mais ni une pioche ni une carte qui en a retourné une autre"
    expect(page.locator(".ranked-note")).to_contain_text(before)
    page.locator('form[action="/tripeaks/daily/play"] button').click()
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    note = page.locator("#ranked-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text(before)
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    play_moves(page, ["draw"])
    expect(page.locator("#undo-button")).to_be_disabled()
    page.keyboard.press("u")  # the key still asks: the server refuses and says why
    expect(page.locator("#help-message")).to_have_text(
        "Dans une partie classée, annuler ne peut pas cacher une carte que vous avez vue"
    )
    expect(page.locator("#moves")).to_have_text("1")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360


def test_the_result_is_copied_to_share_with_the_pages_address_and_no_deal(
    browser: Any, live_server: Any
) -> None:
    base = live_server.url
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        deal = live_server.store.daily_deal("tripeaks", "easy", today())
        line = list(solve(Game.from_code(deal.code)).line or [])
        play_attempt(page, base, line[:4])
        page.goto(f"{base}/tripeaks/daily?rules=easy")
        page.locator("#share-button").click()
        expect(page.locator("#share-status")).to_have_text("Copied: paste it anywhere.")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        lines = copied.splitlines()
        assert lines[0] == f"Parlour · Daily deal · TriPeaks · {today().isoformat()} · Easy"
        # Other tests' players may have played today's deal on this server too.
        assert re.search(r" · Place \d+ of \d+\.$", lines[1])
        assert lines[2] == f"{base}/tripeaks/daily?rules=easy"
        assert deal.code.split("-")[-1] not in copied
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_the_end_of_an_attempt_leads_to_the_days_leaderboard(page: Any, live_server: Any) -> None:
    base = live_server.url
    deal = live_server.store.daily_deal("tripeaks", "classic", today())
    page.goto(f"{base}/tripeaks/daily?rules=classic")
    page.locator('form[action="/tripeaks/daily/play"] button').click()
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    play_moves(page, greedy_to_the_end(deal.code))  # won, or stuck
    expect(page.locator("#ending")).to_be_visible()
    # Today's deal cannot be offered as a challenge yet: the end window leads to the leaderboard.
    expect(page.locator("#ending-challenge")).to_be_hidden()
    page.locator("#ending-daily").click()
    page.wait_for_url(f"{base}/tripeaks/daily?rules=classic")
    expect(page.locator("#share-text")).to_be_visible()  # a stuck attempt was ended first: it counts
    assert page.locator(".daily-table tr.highlight").count() == 1


def test_daily_thirteen_offers_no_strength_nor_new_game_while_it_counts(page: Any, live_server: Any) -> None:
    base = live_server.url
    page.goto(f"{base}/thirteen")  # an ordinary match: both offered
    expect(page.locator('[data-role="side-new"]')).to_be_visible()
    expect(page.locator('[data-setting="strength"]')).to_be_visible()
    page.goto(f"{base}/thirteen/daily")
    page.locator('form[action="/thirteen/daily/play"] button').click()
    page.wait_for_url(f"{base}/thirteen")
    page.wait_for_selector(".th-hand .card")
    expect(page.locator('[data-role="side-new"]')).to_be_hidden()
    expect(page.locator('[data-setting="strength"]')).to_be_hidden()
    expect(page.locator('[data-role="strength-note"]')).to_be_hidden()
    expect(page.locator('[data-setting="speed"]')).to_be_visible()  # the pace stays the player's


@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fr", "vi"])
def test_the_days_leaderboard_shows_the_time_that_breaks_ties_and_fits_a_phone(
    browser: Any, live_server: Any, lang: str
) -> None:
    base = live_server.url
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(f"{base}/language/{lang}?next=/tripeaks/daily")
        deal = live_server.store.daily_deal("tripeaks", "easy", today())
        play_attempt(page, base, list(solve(Game.from_code(deal.code)).line or [])[:3])
        page.goto(f"{base}/tripeaks/daily?rules=easy")
        times = page.locator(".daily-table time")
        expect(times.first).to_be_visible()
        assert re.fullmatch(r"\d+:\d\d", times.first.text_content() or "")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360, lang
        for cell in page.locator(".daily-table td").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, lang
    finally:
        context.close()
