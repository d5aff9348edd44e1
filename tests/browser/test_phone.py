"""Phones: every page fits 360 px and up in every language, controls are at least 44 px, dialogs stay
on the screen, and the Thirteen hand leaves every card a strip a finger can hit."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGES = (
    "/", "/tripeaks", "/thirteen", "/stats", "/player", "/tripeaks/numbered", "/rules/tripeaks",
    "/thirteen/tables", "/thirteen/t/ZZZZZZ",
)  # fmt: skip
OVERFLOW = "() => document.documentElement.scrollWidth"
SMALL_CONTROLS = """() => [...document.querySelectorAll('a, button, select, input')]
  .filter(e => !e.closest('p, li, td, figcaption, .card-slot, .th-hand, .skip-link, dd')
    && !e.classList.contains('skip-link') && !e.classList.contains('card-slot'))
  .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
      && !['checkbox', 'radio', 'hidden'].includes(e.type) && (r.height < 43.5 || r.width < 43.5); })
  .map(e => (e.textContent || e.name || e.tagName).trim().slice(0, 20))"""


@contextlib.contextmanager
def window(browser: Any, size: tuple[int, int], **options: Any) -> Iterator[Any]:
    """A page in a browser window of ``size`` of its own (a new player), closed afterwards."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True, **options)
    try:
        yield context.new_page()
    finally:
        context.close()


def open_thirteen(page: Any, url: str, lang: str) -> None:
    """Open Thirteen in ``lang`` and wait for its points table."""
    page.goto(f"{url}/language/{lang}?next=/thirteen")
    page.wait_for_selector(".th-scores tfoot td")


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fr"])
def test_every_page_fits_the_phone(browser: Any, live_server: Any, size: tuple[int, int], lang: str) -> None:
    width = size[0]
    with window(browser, size, has_touch=True) as page:
        page.goto(f"{live_server.url}/language/{lang}?next=/")
        for path in PAGES:
            page.goto(f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate(OVERFLOW) <= width, f"{lang} {path} is wider than {width} px"
            assert page.evaluate(SMALL_CONTROLS) == [], f"{lang} {path}: controls under 44 px"
        # A friends' table, gathering its players: the seats and the host's tools.
        made = page.request.post(f"{live_server.url}/api/tables", data={"name": "Ana"}).json()
        page.goto(f"{live_server.url}{made['url']}")
        page.wait_for_selector('[data-role="seating"]:not([hidden])')
        assert page.evaluate(OVERFLOW) <= width, f"{lang} a friends' table is wider than {width} px"
        assert page.evaluate(SMALL_CONTROLS) == [], f"{lang} a friends' table: controls under 44 px"
        page.goto(f"{live_server.url}/tripeaks")
        page.locator("#new-game-button").click()
        for box in page.locator("dialog[open] button").all():
            bounds = box.bounding_box()
            assert bounds is not None and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width, lang
        page.locator("dialog[open] summary").click()  # the variants, open
        for row in page.locator("dialog[open] label, dialog[open] summary").all():
            bounds = row.bounding_box()
            assert bounds is not None and bounds["height"] >= 43.5, f"{lang} a New game row under 44 px"
        page.keyboard.press("Escape")
        page.locator("#settings-button").click()  # the settings, with the hint strength when hints are on
        from parlour.tripeaks.solver import compiled_available

        assert page.locator("dialog[open] select").count() == (1 if compiled_available() else 0)
        for box in page.locator("dialog[open] select, dialog[open] button").all():
            bounds = box.bounding_box()
            assert bounds is not None and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width, lang
            assert bounds["height"] >= 43.5, f"{lang} a settings control is under 44 px"
        for row in page.locator("dialog[open] label").all():
            bounds = row.bounding_box()
            assert bounds is not None and bounds["height"] >= 43.5, f"{lang} a settings row under 44 px"


def test_every_card_of_the_thirteen_hand_shows_a_strip_to_tap(browser: Any, live_server: Any) -> None:
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/thirteen")
        cards = page.locator(".th-hand .card")
        cards.nth(12).wait_for()
        boxes = [cards.nth(i).bounding_box() for i in range(13)]
        assert all(box is not None for box in boxes)
        for box, following in itertools.pairwise(boxes):
            assert box is not None and following is not None
            same_row = abs(box["y"] - following["y"]) < 5
            visible = following["x"] - box["x"] if same_row else box["width"]
            assert visible >= 36, f"a card shows only {visible:.0f} px"
        assert max(box["x"] + box["width"] for box in boxes if box) <= 360


BROKEN_WORDS = r"""() => [...document.querySelectorAll('.th-scores th, .th-scores td')].flatMap(cell => {
  const broken = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (const word of node.data.matchAll(/[^\s-]+-?/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
})"""


@pytest.mark.parametrize("size", [(360, 740), (390, 844), (1280, 800)])
def test_no_word_of_the_points_table_breaks(browser: Any, live_server: Any, size: tuple[int, int]) -> None:
    """The points table keeps every word whole ("Round", "Computer 1", "Összesen"), in every language,
    with a long name at a friends' table too (it may break after its hyphen, never inside a word)."""
    width = size[0]
    with window(browser, size) as page:
        for lang in ("en", "hi", "hu", "fr"):
            open_thirteen(page, live_server.url, lang)
            assert page.evaluate(BROKEN_WORDS) == [], f"{lang} at {width} px"
            made = page.request.post(f"{live_server.url}/api/tables", data={"name": "Jean-Baptiste"}).json()
            page.goto(f"{live_server.url}{made['url']}")
            page.wait_for_selector(".th-scores tfoot td")
            assert page.evaluate(BROKEN_WORDS) == [], f"{lang} at {width} px, a friends' table"
            assert page.evaluate(OVERFLOW) <= width, f"{lang} at {width} px: wider than the window"


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768), (390, 844)])
def test_a_side_seat_on_its_turn_stays_inside_the_window(browser: Any, live_server: Any, size: Any) -> None:
    """West and east on their turn, with the longest turn chips of every language and long names: each
    panel stays inside its column and the window."""
    width = size[0]
    with window(browser, size) as page:
        for lang in ("en", "hi", "hu", "fr"):
            open_thirteen(page, live_server.url, lang)
            boxes = page.evaluate(
                """() => [...document.querySelectorAll('.th-seat-west, .th-seat-east')].map((seat) => {
                  seat.classList.add('is-turn');
                  seat.querySelector('[data-role="name"]').textContent = 'Jean-Baptiste Poquelin';
                  const chip = seat.querySelector('[data-role="chip"]');
                  chip.hidden = false;
                  chip.className = 'th-chip th-chip-turn';
                  chip.textContent = 'Gondolkodik… 30 mp van hátra';
                  const r = seat.querySelector('.th-panel').getBoundingClientRect();
                  return [r.left, r.right];
                })"""
            )
            for left, right in boxes:
                assert left >= 0 and right <= width, f"{lang} at {width} px: a side panel at {left}-{right}"
            assert page.evaluate(OVERFLOW) <= width, f"{lang} at {width} px: wider than the window"
