"""TriPeaks puzzles on a 360 px phone: one solved and one failed, each followed by the solver's win
played out, and the daily puzzle; nothing wider than the phone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from parlour.tripeaks.game import Game

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def shown_puzzle(page: Any, live_server: Any, path: str) -> tuple[str, list[str]]:
    """Open a puzzle page; return its answer and its other legal moves (read from the store)."""
    page.goto(f"{live_server.url}{path}")
    data = json.loads(page.locator("#puzzle-data").text_content())
    puzzle = live_server.store.puzzle("tripeaks", data["puzzle"])
    game = Game.from_code(puzzle.code)
    for move in puzzle.moves:
        game.apply(move)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    return puzzle.answer, [move for move in game.legal_actions() if move != puzzle.answer]


def make(page: Any, move: str) -> None:
    if move == "draw":
        page.locator("#stock").click()
    else:
        page.locator(f'.card-slot[data-card="{move}"]').click()


def test_a_puzzle_solved_then_one_failed_then_the_daily_puzzle(phone: Any, live_server: Any) -> None:
    answer, _ = shown_puzzle(phone, live_server, "/tripeaks/puzzles")
    make(phone, answer)
    expect(phone.locator(".puzzle")).to_have_attribute("data-state", "solved")
    expect(phone.locator("#verdict")).to_contain_text("Correct!")
    expect(phone.locator("#verdict")).to_contain_text("1500 →")
    expect(phone.locator("#code")).to_contain_text("TP1-")
    expect(phone.locator("#next-puzzle")).to_be_focused()
    phone.locator("#next").click()  # the solver's win, step by step
    expect(phone.locator("#step-text")).to_contain_text("Step 2 of")

    phone.locator("#next-puzzle").click()
    answer, others = shown_puzzle(phone, live_server, "/tripeaks/puzzles")
    make(phone, others[0])
    expect(phone.locator(".puzzle")).to_have_attribute("data-state", "failed")
    expect(phone.locator("#verdict")).to_contain_text("Not this one")

    daily, _ = shown_puzzle(phone, live_server, "/tripeaks/puzzles/daily")
    expect(phone.locator("h1")).to_have_text("Daily puzzle · TriPeaks")
    make(phone, daily)
    expect(phone.locator(".puzzle")).to_have_attribute("data-state", "solved")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_thirteen_puzzle_solved_on_a_phone(phone: Any, live_server: Any) -> None:
    phone.goto(f"{live_server.url}/thirteen/puzzles")
    data = json.loads(phone.locator("#puzzle-data").text_content())
    answer = live_server.store.puzzle("thirteen", data["puzzle"]).answer
    if answer == "pass":
        phone.locator("#pass").click()
    else:
        for card in answer.split():
            phone.locator(f'.th-puzzle-card[data-card="{card}"]').click()
        phone.locator("#play").click()
    expect(phone.locator(".puzzle")).to_have_attribute("data-state", "solved")
    expect(phone.locator("#step-text")).to_contain_text("Step 1 of")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
