"""Phones: every page fits 360 px and up in every language, controls are at least 44 px, dialogs stay
on the screen, and the Thirteen hand leaves every card a strip a finger can hit."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from thirteen_play import lead_lowest_card, play_until

pytestmark = pytest.mark.browser

PAGES = (
    "/", "/tripeaks", "/thirteen", "/stats", "/player", "/tripeaks/numbered", "/rules/tripeaks",
    "/thirteen/tables", "/thirteen/t/ZZZZZZ", "/tripeaks/daily",
    "/tripeaks/numbered/leaders", "/thirteen/daily", "/rules/thirteen", "/tripeaks/daily?rules=classic",
    "/ratings/thirteen", "/tripeaks/puzzles", "/thirteen/puzzles", "/link",
)  # fmt: skip
OVERFLOW = "() => document.documentElement.scrollWidth"
SMALL_CONTROLS = """() => [...document.querySelectorAll('a, button, select, input, summary')]
  .filter(e => !e.classList.contains('skip-link') && !e.classList.contains('card-slot')
    && !e.closest('.card-slot, .th-hand'))
  .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    if (!(r.width > 0 && r.height > 0 && s.visibility !== 'hidden') || e.type === 'hidden') return false;
    if (e.type === 'checkbox' || e.type === 'radio') {  // 24 px, in a label row a finger can hit (44 px)
      const row = (e.closest('label') || e).getBoundingClientRect();
      return r.width < 23.5 || r.height < 23.5 || row.height < 43.5;
    }
    // A link in a sentence is sized by its line (WCAG 2.2's inline exception); any other target: 44 px.
    const block = e.closest('p, li, td, dd, figcaption');
    const inSentence = e.tagName === 'A' && s.display === 'inline' && block
      && block.textContent.trim().length > e.textContent.trim().length + 2;
    return !inSentence && (r.height < 43.5 || r.width < 43.5); })
  .map(e => `${e.tagName} ${(e.textContent || e.name || '').trim().slice(0, 20)}`)"""


HIDDEN_SHOWN = """() => [...document.querySelectorAll('[hidden]')]
  .filter(e => getComputedStyle(e).display !== 'none')
  .map(e => `${e.tagName.toLowerCase()}.${e.className} ${(e.textContent || '').trim().slice(0, 30)}`)"""
"""Elements the page has hidden that a style shows all the same."""

# True once no animation or transition runs on the page (finished ones leave getAnimations()).
SETTLED = "() => document.getAnimations().length === 0"


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


def finished_game_pages(live_server: Any, page: Any) -> list[str]:
    """Paths reached from a finished TriPeaks game of this page's player (who must exist: a game page
    was opened): its review and its challenge."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "parlour_token")
    store = live_server.store
    player = store.player_by_token(token)
    assert player is not None
    game_id = store.start_game(player.player_id, "tripeaks", "easy", "TP1-E-AAAAAAB", ["human"])
    store.append_moves(game_id, player.player_id, 0, ["draw", "draw", "draw"])
    store.finish_game(game_id, player.player_id)
    challenge = page.request.post(f"{live_server.url}/api/games/{game_id}/challenge").json()
    return [f"/tripeaks/review/{game_id}", challenge["url"]]


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fr", "vi"])
def test_every_page_fits_the_phone(browser: Any, live_server: Any, size: tuple[int, int], lang: str) -> None:
    width = size[0]
    with window(browser, size, has_touch=True) as page:
        page.goto(f"{live_server.url}/language/{lang}?next=/")
        for path in PAGES:
            page.goto(f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate(OVERFLOW) <= width, f"{lang} {path} is wider than {width} px"
            assert page.evaluate(SMALL_CONTROLS) == [], f"{lang} {path}: controls under 44 px"
            assert page.evaluate(HIDDEN_SHOWN) == [], f"{lang} {path}: hidden elements shown"
        # A finished game of this player's: its review page and its challenge's page.
        for path in finished_game_pages(live_server, page):
            page.goto(path if path.startswith("http") else f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate(OVERFLOW) <= width, f"{lang} {path} is wider than {width} px"
            assert page.evaluate(SMALL_CONTROLS) == [], f"{lang} {path}: controls under 44 px"
            assert page.evaluate(HIDDEN_SHOWN) == [], f"{lang} {path}: hidden elements shown"
        # A friends' table, gathering its players: the seats and the host's tools.
        made = page.request.post(f"{live_server.url}/api/tables", data={"name": "Ana"}).json()
        page.goto(f"{live_server.url}{made['url']}")
        page.wait_for_selector('[data-role="seating"]:not([hidden])')
        assert page.evaluate(OVERFLOW) <= width, f"{lang} a friends' table is wider than {width} px"
        assert page.evaluate(SMALL_CONTROLS) == [], f"{lang} a friends' table: controls under 44 px"
        assert page.evaluate(HIDDEN_SHOWN) == [], f"{lang} a friends' table: hidden elements shown"
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
        for lang in ("en", "hi", "hu", "fr", "vi"):
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
        for lang in ("en", "hi", "hu", "fr", "vi"):
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


OFF_SCREEN = """(atTheTop) => {
  const parts = ['.th-seat-west .th-panel', '.th-seat-north .th-panel', '.th-seat-east .th-panel',
    '.th-seat-west .th-fan', '.th-seat-north .th-fan', '.th-seat-east .th-fan', '.th-pile', '.th-pile-label',
    '.th-trick', '.th-me .th-panel-me', '.th-status', '.th-play', '.th-pass', '.th-chat-button',
    '.th-hand .card'];
  const out = [];
  for (const selector of parts) {
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      // Where it lies in the first screen of the page (Playwright's clicks may scroll to their target).
      const r = { left: box.left, right: box.right, top: box.top + scrollY, bottom: box.bottom + scrollY };
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
        out.push(`${selector} at ${[r.left, r.top, r.right, r.bottom].map(Math.round).join(',')}`);
    }
  }
  if (atTheTop && scrollY !== 0) out.push(`scrolled to ${scrollY}`);
  return out;
}"""
"""What of the Thirteen table lies outside the page's first screen (and whether the page has scrolled,
when it should be at its top)."""

SHOWN = """() => [...document.querySelectorAll('main *')]
  .filter((e) => e.children.length === 0 && e.textContent.trim() && e.getBoundingClientRect().height > 0)
  .map((e) => {
    const r = e.getBoundingClientRect();
    const where = `${Math.round(r.top + scrollY)}+${Math.round(r.height)}`;
    return `${e.className || e.tagName}@${where}: ${e.textContent.trim().slice(0, 60)}`;
  })
  .slice(0, 60)"""
"""The visible texts of the page with where each lies, for a failure's message."""


def _assert_whole_table_on_screen(page: Any, where: str, *, at_the_top: bool = False) -> None:
    # Measured where the cards come to rest, not while the last play flies in.
    page.wait_for_function("() => document.querySelector('.th-pile').getAnimations().length === 0")
    off = page.evaluate(OFF_SCREEN, at_the_top)
    if off:  # say what the screen showed: which of its parts had grown
        shown = page.evaluate(SHOWN)
        raise AssertionError(f"{where}: not on the screen without scrolling: {off}; the page showed {shown}")


def _play_until_the_trick_grows(page: Any, where: str) -> None:
    """Check the table at the deal, with a raised card on the person's turn, and with a trick on the felt."""
    _assert_whole_table_on_screen(page, f"{where}, at the deal", at_the_top=True)
    grown = "() => document.querySelectorAll('.th-trick li').length >= 3"
    my_turn = "() => !!document.querySelector('.th-me.is-turn')"
    raised = False
    for _ in range(20):  # the person passes, or leads the lowest card, until a trick of three steps shows
        page.wait_for_function(f"() => ({grown})() || ({my_turn})()", timeout=30_000)
        if raised and page.evaluate(grown):
            break
        page.wait_for_function(my_turn, timeout=30_000)
        if not raised:  # a card that may be played, raised (the selection rule refuses one that may not)
            cards = page.locator(".th-hand .card")
            for index in reversed(range(cards.count())):
                if not page.evaluate(my_turn):
                    break  # the click played its card at once (it could not be part of a larger play)
                cards.nth(index).click()
                if page.locator(".th-hand .card.selected").count():
                    _assert_whole_table_on_screen(page, f"{where}, a card raised")
                    raised = True
                    break
            if raised and page.evaluate(grown):
                break
            if not page.evaluate(my_turn):
                continue
        version = page.evaluate("() => document.querySelector('.th-table').dataset.version")
        if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
            page.click('[data-action="pass"]')
        else:  # leading: the lowest card alone is always a legal lead
            while page.locator(".th-hand .card.selected").count():
                page.locator(".th-hand .card.selected").first.click()
            lead_lowest_card(page)
        page.wait_for_function(
            "(version) => document.querySelector('.th-table').dataset.version !== version", arg=version
        )
    else:
        raise AssertionError(f"{where}: no trick of three steps came")
    _assert_whole_table_on_screen(page, f"{where}, a trick in play")


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fr", "vi"])
def test_the_whole_thirteen_table_fits_one_phone_screen(
    browser: Any, live_server: Any, size: tuple[int, int], lang: str
) -> None:
    """Opponents, the trick, the hand, Play and Pass are all on the screen without scrolling, alone
    against the computer and at a friends' table, on the deal, with a card raised and with a trick."""
    with window(browser, size, has_touch=True) as page:
        page.goto(f"{live_server.url}/language/{lang}?next=/thirteen")
        page.wait_for_selector(".th-hand .card")
        _play_until_the_trick_grows(page, f"{lang} {size} alone")
        made = page.request.post(f"{live_server.url}/api/tables", data={"name": "Jean-Baptiste"}).json()
        page.goto(f"{live_server.url}{made['url']}")
        page.wait_for_selector('[data-role="seating"]:not([hidden])')
        for seat in (1, 2, 3):
            # The seat's first button is "Add a computer player".
            page.locator(".th-seating-seat").nth(seat).locator("button").first.click()
            bots = "() => document.querySelectorAll('.th-seating-seat.is-bot').length"
            page.wait_for_function(f"() => ({bots})() >= {seat}")
        page.click('[data-action="start"]')
        page.wait_for_selector(".th-hand .card")
        _play_until_the_trick_grows(page, f"{lang} {size} a friends' table")


def test_a_long_trick_stays_one_line_on_a_phone(browser: Any, live_server: Any) -> None:
    """However many steps a trick has, on a phone it is one line that scrolls sideways with its newest
    step in view: a trick wrapped onto four lines once pushed the hand's second row off a 740 px screen
    (the table-wide rule, written later in the style sheet, had overridden the phone's)."""
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/thirteen")
        page.wait_for_selector(".th-hand .card")
        lines, scrolls = page.evaluate(
            """() => {
              const trick = document.querySelector('[data-role="trick"]');
              for (let i = 0; i < 8; i++) {
                const step = document.createElement('li');
                const who = document.createElement('span');
                who.className = 'th-trick-seat';
                who.textContent = `Computer ${i % 3 + 1}`;
                const card = document.createElement('span');
                card.className = 'th-mini';
                card.textContent = '10♠';
                step.append(who, card);
                trick.append(step);
              }
              const top = (li) => Math.round(li.getBoundingClientRect().top);
              const tops = new Set([...trick.children].map(top));
              return [tops.size, trick.scrollWidth > trick.clientWidth];
            }"""
        )
        assert (lines, scrolls) == (1, True)


def test_the_phone_menu_opens_and_closes(browser: Any, live_server: Any) -> None:
    """On a phone the header is one row with a Menu button: it opens the games' and languages' links
    (each 44 px), and Escape closes it, handing the focus back to the button."""
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/thirteen")
        header = page.locator(".site-header").bounding_box()
        assert header is not None and header["height"] <= 56
        assert not page.locator(".site-nav a").first.is_visible()
        page.get_by_role("button", name="Menu").click()
        assert page.get_by_role("button", name="Menu").get_attribute("aria-expanded") == "true"
        links = page.locator("#site-menu a")
        assert links.count() >= 9
        for index in range(links.count()):
            box = links.nth(index).bounding_box()
            assert box is not None and box["height"] >= 43.5 and box["x"] + box["width"] <= 360
        page.keyboard.press("Escape")
        assert not page.locator(".site-nav a").first.is_visible()
        assert page.evaluate("document.activeElement.classList.contains('site-menu-button')")
        page.get_by_role("button", name="Menu").click()
        page.locator('#site-menu a[lang="hu"]').click()
        page.wait_for_selector(".th-hand .card")
        assert page.get_by_role("button", name="Menü").is_visible()
    with window(browser, (1280, 800)) as page:
        page.goto(f"{live_server.url}/thirteen")
        assert not page.get_by_role("button", name="Menu").is_visible()
        assert page.locator(".site-nav a").first.is_visible()


# SKIP
def test_a_card_that_fits_takes_a_finger_wide_target_on_the_bottom_row(
    browser: Any, live_server: Any
) -> None:
    """At 360 px the bottom row's cards overlap; a tap a few pixels onto a neighbour that does not fit
    plays the card that does, so that each fitting card answers over at least 44 px."""
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.rules import EASY

    game = Game.from_code(DealCode(1, EASY))
    fitting = set(game.fitting_positions())
    target = next(p for p in range(19, 27) if p in fitting and {p - 1, p + 1}.isdisjoint(fitting))
    card = str(game.card_at(target))
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/tripeaks")
        page.wait_for_selector('.tripeaks[data-state="playing"]')
        status = page.evaluate(
            """async () => (await fetch("/api/games/tripeaks", {method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({number: 1, rules: "easy"})})).status"""
        )
        assert status == 201
        page.reload()
        page.wait_for_selector(f'.card-slot[data-card="{card}"]')
        page.locator(f'[data-position="{target}"]').scroll_into_view_if_needed()
        box = page.locator(f'[data-position="{target}"]').bounding_box()
        after = page.locator(f'[data-position="{target + 1}"]').bounding_box()
        assert box is not None and after is not None
        strip = after["x"] - box["x"]
        assert strip < 44  # the cards do overlap here
        y = box["y"] + box["height"] * 0.7
        played = f"() => document.querySelector('[data-position=\"{target}\"]').hidden"
        for x in (box["x"] - 4, box["x"] + strip / 2, box["x"] + strip + 4):
            # A finger lands on the card where it lies, not where it is flying (the deal, or an undo
            # sliding it back from the pile): wait until nothing moves, as a person would.
            page.wait_for_function(SETTLED)
            page.touchscreen.tap(x, y)
            page.wait_for_function(played)
            page.locator("#undo-button").click()
            page.wait_for_function(f"() => !({played})()")
        page.wait_for_function(SETTLED)
        page.touchscreen.tap(box["x"] + strip + 20, y)  # well onto the neighbour: the neighbour's own tap
        page.wait_for_selector("#help-message:not(:empty)")
        assert not page.evaluate(played)


def test_the_last_trick_can_be_looked_at_again(browser: Any, live_server: Any) -> None:
    """Once a trick is cleared, "Last trick" shows its steps over the middle of the table (nothing
    else moves), and a tap or Escape puts it away."""
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/thirteen")
        page.wait_for_selector(".th-hand .card")
        button = '[data-action="last-trick"]'
        for _ in range(40):  # the person passes, or leads the lowest card, until a trick is cleared
            cleared = f"!!document.querySelector('{button}:not([hidden])')"
            page.wait_for_function(
                f"() => !!document.querySelector('.th-me.is-turn') || {cleared}", timeout=30_000
            )
            if page.locator(f"{button}:not([hidden])").count():
                break
            version = page.evaluate("() => document.querySelector('.th-table').dataset.version")
            if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
                page.click('[data-action="pass"]')
                page.wait_for_function(
                    "(v) => document.querySelector('.th-table').dataset.version !== v", arg=version
                )
            else:
                lead_lowest_card(page)
        else:
            raise AssertionError("no trick was cleared")
        hand = page.locator(".th-hand").bounding_box()
        page.locator(button).click()
        shown = page.locator('[data-role="last-trick"]')
        assert shown.is_visible() and page.locator(button).get_attribute("aria-expanded") == "true"
        assert (
            page.locator('[data-role="last-trick-steps"] li').count() >= 2
        )  # a play and the passes after it
        assert page.locator(".th-hand").bounding_box() == hand  # it lies over the table: nothing moved
        page.keyboard.press("Escape")
        assert not shown.is_visible() and page.locator(button).get_attribute("aria-expanded") == "false"
        page.locator(button).click()
        shown.click()
        assert not shown.is_visible()


ROW_BOXES = """() => [...document.querySelectorAll('.numbered-table tbody tr')].slice(0, 8).map(row => {
  const play = row.querySelector('button').getBoundingClientRect();
  const cells = [...row.querySelectorAll('td')].filter(c => c.getBoundingClientRect().width > 0);
  const right = Math.max(...cells.map(c => c.getBoundingClientRect().right));
  return {play: [play.left, play.right, play.height], right}; })"""


def test_numbered_games_and_statistics_need_no_sideways_scrolling_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    """The numbered games' seven columns and the statistics' nine do not fit 360 px: each game becomes a
    block with its number, whether it can be won and its Play button first, and what is known of it
    below, labelled; each rule set's statistics a block of labelled figures. The end window of the game
    won first keeps its buttons two a row."""
    from tripeaks_play import play_moves

    from parlour.tripeaks import EASY, DealCode, Game
    from parlour.tripeaks.solver import numbered_result, solve

    number = next(n for n in range(7000, 7500) if (found := numbered_result(EASY, n)) and found.winnable)
    with window(browser, (360, 740), has_touch=True) as page:
        page.goto(f"{live_server.url}/language/hi?next=/tripeaks%3Fnumber%3D{number}%26rules%3Deasy")
        play_moves(page, solve(Game.from_code(DealCode(number, EASY))).line)
        page.wait_for_selector("#ending-title")
        # The end window's buttons, two a row: no label squeezed onto more than two lines.
        page.wait_for_function(SETTLED)
        card = page.locator(".ending-card").bounding_box()
        assert card is not None and card["x"] >= 0 and card["x"] + card["width"] <= 360
        for button in page.locator(".ending-buttons .button:visible").all():
            bounds = button.bounding_box()
            assert bounds is not None and 43.5 <= bounds["height"] <= 66, (button.text_content(), bounds)
        for lang in ("en", "hi", "hu", "fr", "vi"):
            page.goto(
                f"{live_server.url}/language/{lang}?next=/tripeaks/numbered%3Frules%3Deasy%26game%3D{number}"
            )
            page.wait_for_load_state("networkidle")
            for row in page.evaluate(ROW_BOXES):
                left, right, height = row["play"]
                assert left >= 0 and right <= 360 and height >= 43.5, (lang, row)
                assert row["right"] <= 360, (lang, row)
            mine = page.locator(f"#game-{number}")
            # The game just won: its record, held by "You", each figure under its column's name.
            labels = [
                cell.get_attribute("data-label")
                for cell in mine.locator("td[data-label]").all()
                if cell.is_visible()
            ]
            assert len(labels) == 5, (lang, labels)
            box = mine.locator("button").bounding_box()
            assert box is not None and box["x"] + box["width"] <= 360
            # The statistics of that win: every figure in view, under its column's name.
            page.goto(f"{live_server.url}/stats")
            for wrap in page.locator(".table-wrap").all():
                assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), lang
            for cell in page.locator(".stats-table td").all():
                cell_box = cell.bounding_box()
                assert cell_box is not None and cell_box["x"] + cell_box["width"] <= 360, lang
                assert cell.get_attribute("data-label"), lang
    with window(browser, (1280, 800)) as page:  # a wide window keeps the table with its header row
        page.goto(f"{live_server.url}/tripeaks/numbered")
        assert page.locator(".numbered-table thead th").nth(1).is_visible()
        assert (
            page.evaluate("getComputedStyle(document.querySelector('.numbered-table tr')).display")
            == "table-row"
        )


@pytest.mark.parametrize(
    ("lang", "size"), [("hu", (360, 740)), ("fr", (360, 740)), ("hu", (390, 844)), ("hi", (360, 740))]
)
def test_the_thirteen_result_window_fits_the_phone_in_every_language(
    browser: Any, live_server: Any, lang: str, size: tuple[int, int]
) -> None:
    """The round's results ("Cards left" and the longest names of the language) stay inside the screen."""
    width = size[0]
    with window(browser, size, has_touch=True) as page:
        base = live_server.url
        page.goto(f"{base}/language/{lang}?next=/")
        assert page.request.post(f"{base}/api/thirteen/settings", data={"speed": "instant"}).ok
        assert page.request.post(f"{base}/api/games/thirteen", data={"strength": "greedy"}).status == 201
        page.goto(f"{base}/thirteen")
        page.wait_for_selector(".th-hand .card")
        play_until(page, "!!document.querySelector('[data-role=result][open]')", "the round")
        dialog = page.locator('[data-role="result"]')
        box = dialog.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (lang, box)
        for cell in dialog.locator("th, td").all():
            cell_box = cell.bounding_box()
            assert cell_box is not None and cell_box["x"] + cell_box["width"] <= box["x"] + box["width"] + 0.5
        assert page.evaluate(OVERFLOW) <= width, lang
        assert page.evaluate(SMALL_CONTROLS) == [], f"{lang}: controls under 44 px in the result window"
