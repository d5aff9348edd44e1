"""Play now in the browser (issue 50), on 360 px phones in four languages: three people press Play now
within a second of each other and sit at one public table with a computer player in the last seat; a
fourth finds the table among the tables in play, watches, and takes the computer's seat; at the next
round everyone holds a seat and a hand; the player page shows the rating and its chart."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from thirteen_play import POLL, ROUNDS_OVER, lead_lowest_card

from parlour.games.tables import TableSettings

PHONE = {"width": 360, "height": 740}
PLAY_NOW = {"en-US": "Play now", "hi-IN": "अभी खेलें", "fr-FR": "Jouer maintenant", "hu-HU": "Azonnali játék"}
CLAIMED = {
    "en-US": "You take seat",
    "hi-IN": "अगले राउंड से सीट",
    "fr-FR": "Vous prenez la place",
    "hu-HU": "A helyed",
}


@pytest.fixture
def phones(browser: Any) -> Iterator[dict[str, Any]]:
    """Four people, each on a phone of their own in their own language."""
    contexts = []
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for locale in PLAY_NOW:
        context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error, locale=locale: errors.append(f"{locale}: {error}"))
        pages[locale] = page
    yield pages
    for context in contexts:
        context.close()
    assert errors == [], f"script errors: {errors}"


@pytest.fixture
def instant_computers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The public tables made during the test have computer players that move at once (the server runs
    in this process), so that a round takes seconds."""
    made = TableSettings.for_quick_play

    def fast(cls: type[TableSettings], *args: Any, **kwargs: Any) -> TableSettings:
        return replace(made(*args, **kwargs), speed="instant")

    monkeypatch.setattr(TableSettings, "for_quick_play", classmethod(fast))


MY_TURN = "() => !!document.querySelector('.th-me.is-turn') && !!document.querySelector('.th-hand .card')"
"""The page's person is seated and on their turn (a watcher's page may show the bottom seat's turn)."""


def play_round(pages: list[Any]) -> None:
    """Play the first round to its end as the people of ``pages`` (whoever is seated): on each one's
    turn, pass when the page lets them, else lead the lowest card."""
    for _ in range(400):
        if pages[0].evaluate(f"({ROUNDS_OVER})() >= 1"):
            return
        for page in pages:
            # A person still watching (a seat claimed for the next round) has no hand: the seat at the
            # bottom of their page may be on its turn, but it is not theirs to play.
            if page.evaluate(MY_TURN):
                if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
                    version = page.evaluate("() => document.querySelector('.th-table').dataset.version")
                    page.click('[data-action="pass"]')
                    with contextlib.suppress(PlaywrightTimeout):
                        page.wait_for_function(
                            "(v) => document.querySelector('.th-table').dataset.version !== v",
                            arg=version, polling=POLL, timeout=5000,
                        )  # fmt: skip
                else:
                    lead_lowest_card(page)
        pages[0].wait_for_timeout(50)
    raise AssertionError("the first round did not end")


def fits_the_phone(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide on a 360 px phone"


@pytest.mark.timeout(240)
def test_three_press_play_now_and_a_fourth_takes_a_computer_seat(
    phones: dict[str, Any], live_server: Any, instant_computers: None
) -> None:
    pressing = ["en-US", "hi-IN", "fr-FR"]
    for locale in pressing:
        page = phones[locale]
        page.goto(f"{live_server.url}/")
        fits_the_phone(page)
        page.locator(".play-now-options summary").click()
        page.check('input[name="rated"][value="rated"]')
        page.select_option('select[name="strength"]', "random")  # options no other test's tables share
        page.select_option('select[name="target"]', "20")
    for locale in pressing:  # within a second of each other
        phones[locale].get_by_role("button", name=PLAY_NOW[locale]).click()
    for locale in pressing:
        phones[locale].wait_for_url("**/thirteen/t/*")
    urls = {phones[locale].url for locale in pressing}
    assert len(urls) == 1, urls
    first, second, third = (phones[locale] for locale in pressing)
    first.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13", polling=POLL)
    for locale in pressing[1:]:
        # Seated at once when the table had not dealt yet, else watching (no hand) until the next round.
        page = phones[locale]
        page.wait_for_function(
            "() => document.querySelectorAll('.th-hand .card').length === 13"
            " || document.querySelector('[data-role=claim-note]').textContent !== ''",
            polling=POLL,
        )
        if page.locator(".th-hand .card").count() == 0:
            assert CLAIMED[locale] in page.locator('[data-role="claim-note"]').inner_text()
    fits_the_phone(first)

    watcher = phones["hu-HU"]
    watcher.goto(f"{live_server.url}/thirteen/tables")
    code = first.url.rsplit("/", 1)[1]
    watcher.locator('[data-role="playing"]').get_by_role("link", name=code).click()
    watcher.wait_for_url(f"**/thirteen/t/{code}")
    watcher.get_by_role("button", name="Átveszem egy gépi játékos helyét a következő körtől").click()
    watcher.wait_for_function(
        "() => document.querySelector('[data-role=claim-note]').textContent.includes('A helyed')",
        polling=POLL,
    )
    fits_the_phone(watcher)

    play_round(list(phones.values())[:3])
    for page in (first, second, third):
        button = page.locator('[data-role="result"] [data-action="continue"]')
        if button.is_visible():
            button.click()
    for page in (second, third, watcher):
        page.wait_for_function(
            "() => document.querySelectorAll('.th-hand .card').length === 13"
            " && document.querySelector('.th-table').dataset.seat !== ''",
            polling=POLL,
            timeout=40_000,
        )
    seats = {
        page.evaluate("() => document.querySelector('.th-table').dataset.seat") for page in phones.values()
    }
    assert seats == {"0", "1", "2", "3"}

    first.goto(f"{live_server.url}/player")
    panel = first.locator(".rating-panel")
    panel.locator('[data-role="rating"]').wait_for()
    assert panel.locator("svg.stats-chart").count() == 1
    fits_the_phone(first)
