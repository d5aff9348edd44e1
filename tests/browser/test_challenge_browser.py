"""A challenge in two browsers: the first person wins a deal and offers it from the end window; a
friend opens the link in another browser, plays the same deal with its code in no frame and no page,
and sees the first person's result only once their own attempt has ended."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from tripeaks_play import greedy_to_the_end, play_moves

from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.solver import numbered_result, solve

pytestmark = pytest.mark.browser


@pytest.fixture
def friend(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_a_friend_plays_the_challenge_and_then_sees_both_results(page: Any, friend: Any) -> None:
    number = next(n for n in range(6000, 6500) if (found := numbered_result(EASY, n)) and found.winnable)
    code = str(DealCode(number, EASY))
    line: list[str] = list(solve(Game.from_code(code)).line or [])
    page.goto(f"{page.base_url}/tripeaks?number={number}&rules=easy")
    expect(page.locator("#game-number")).to_have_text(f"Game #{number}")
    play_moves(page, line)
    expect(page.locator("#ending-title")).to_have_text("You won!")
    page.locator("#ending-challenge").click()
    page.wait_for_url("**/tripeaks/challenge/*")
    link = page.locator(".challenge-link input").input_value()
    assert code not in link and code.split("-")[-1] not in link

    frames: list[str] = []
    friend.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(str(frame))))
    friend.goto(link)
    invitation = friend.text_content("main") or ""
    assert "Accept the challenge" in invitation and "Won, score" not in invitation and code not in invitation
    friend.get_by_role("button", name="Accept the challenge").click()
    expect(friend.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    assert code not in friend.content()
    friend.locator("#stock").click()
    expect(friend.locator("#moves")).to_have_text("1")
    friend.goto(link)  # the attempt is still in play: nothing of the first person's game yet
    assert "Won, score" not in (friend.text_content("main") or "")
    friend.goto(f"{page.base_url}/tripeaks")
    friend.locator("#new-game-button").click()
    friend.locator("#new-game-deal").click()  # a new deal ends the attempt: it is the answer
    expect(friend.locator("#moves")).to_have_text("0")
    assert frames and not [frame for frame in frames if code.split("-")[-1] in frame]

    friend.goto(link)
    sides = friend.locator(".challenge-side")
    expect(sides).to_have_count(2)
    assert "Won, score" in (sides.nth(0).text_content() or "")  # the first person's win, now shown
    assert "You" in (sides.nth(1).text_content() or "")
    review = sides.nth(0).get_by_role("link", name="Review")
    friend.goto(f"{page.base_url}{review.get_attribute('href')}")
    friend.wait_for_selector("#moves li")  # the friend may open the challenger's review
    page.goto(link)
    expect(page.locator(".challenge-side")).to_have_count(2)


def test_a_ranked_challenge_both_sides_to_a_stuck_end(browser: Any, page: Any, friend: Any) -> None:
    """A random deal (drawn in secret: a ranked challenge) played to its end by both, the friend to a
    stuck end: each end window leads on, the link is copied with one button, and the results show."""
    base = page.base_url
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.goto(f"{base}/tripeaks")  # a new player's first game: a random deal
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    expect(page.locator("#deal-code")).to_have_attribute("title", re.compile(r"^TP2-E-"))
    code = page.locator("#deal-code").get_attribute("title") or ""
    assert code.startswith("TP2-E-")
    play_moves(page, greedy_to_the_end(code))
    expect(page.locator("#ending")).to_be_visible()
    page.locator("#ending-challenge").click()  # a stuck game is ended first, then offered
    page.wait_for_url("**/tripeaks/challenge/*")
    expect(page.locator(".challenge-kind")).to_contain_text("A ranked challenge")
    expect(page.locator(".challenge-results")).to_contain_text("No friend has finished it yet")
    assert "Nobody has finished" not in (page.text_content("main") or "")
    page.locator("#copy-link-button").click()
    expect(page.locator("#copy-link-status")).to_have_text("Copied: paste it anywhere.")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link == page.locator("#challenge-link").input_value() and code.split("-")[2] not in link

    friend.goto(link)
    friend.get_by_role("button", name="Accept the challenge").click()
    expect(friend.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    play_moves(friend, greedy_to_the_end(code))
    expect(friend.locator("#ending")).to_be_visible()
    expect(friend.locator("#ending-challenge")).to_be_hidden()
    friend.locator("#ending-answer").click()  # the stuck answer is ended, so that it counts
    friend.wait_for_url(link)
    sides = friend.locator(".challenge-side")
    expect(sides).to_have_count(2)
    assert "Your attempt is in play" not in (friend.text_content("main") or "")
    assert code.split("-")[2] not in friend.content()  # the friend's own deal: still named nowhere here
    page.goto(link)
    expect(page.locator(".challenge-side")).to_have_count(2)
