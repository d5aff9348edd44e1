"""Decks and themes: the four-colour deck, large cards, the dark and high-contrast themes are applied to
the cards and pages, kept with the player (the next page, the next visit), and "auto" follows the
device's colour scheme and contrast until the player chooses."""

from __future__ import annotations

from typing import Any

import pytest
from test_accessibility import axe_violations, failing
from test_phone import window

pytestmark = pytest.mark.browser

LOOK = "() => [document.documentElement.dataset.look, document.documentElement.dataset.deck]"
SUIT_FILL = """(code) => {
  const card = document.querySelector(`.th-hand .card[data-card="${code}"] .card-index text`);
  return card ? getComputedStyle(card).fill : null; }"""
INDEX_SCALE = """() => getComputedStyle(document.querySelector('.th-hand .card .card-index')).transform"""
CARD_WIDTH = "() => document.querySelector('.th-hand .card').getBoundingClientRect().width"
BACKGROUND = "() => getComputedStyle(document.body).backgroundColor"
LABEL_CONTRASTS = r"""() => {
  const luminance = (css) => { const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll('.th-trick .th-mini')].map((label) => {
    const style = getComputedStyle(label);
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05); }); }"""
"""The contrast ratio (WCAG) of each small card label of the trick: its suit colour on its own face."""


def choose(page: Any, base: str, **looks: str) -> None:
    """Save ``looks`` (theme, deck, card_size) with the player page's form, as a player does."""
    page.goto(f"{base}/player")
    for name, value in looks.items():
        page.select_option(f'select[name="{name}"]', value)
    page.locator('form:has(select[name="theme"]) button[type="submit"]').click()
    page.wait_for_url("**/player?saved=preferences")


def suit_fills(page: Any) -> dict[str, str]:
    """The fill of each suit's corner letter among the cards of the Thirteen hand now shown."""
    fills: dict[str, str] = {}
    for code in page.eval_on_selector_all(".th-hand .card", "cards => cards.map(c => c.dataset.card)"):
        fills.setdefault(code[-1], page.evaluate(SUIT_FILL, code))
    return fills


def test_the_four_colour_deck_and_large_cards_are_applied_and_kept(browser: Any, live_server: Any) -> None:
    base = live_server.url
    with window(browser, (1280, 860)) as page:
        page.goto(f"{base}/thirteen")
        page.wait_for_selector(".th-hand .card")
        two = suit_fills(page)
        normal_width = page.evaluate(CARD_WIDTH)
        assert page.evaluate(INDEX_SCALE) == "none"
        choose(page, base, deck="four_colour", card_size="large")
        page.goto(f"{base}/thirteen")
        page.wait_for_selector(".th-hand .card")
        four = suit_fills(page)
        assert page.evaluate(LOOK)[1] == "four_colour"
        # Red and black before; four colours now, hearts and spades as they were.
        assert {two.get("H"), two.get("D")} - {None} <= {"rgb(200, 16, 46)"}
        assert {two.get("S"), two.get("C")} - {None} <= {"rgb(26, 26, 26)"}
        assert four.get("D", "rgb(20, 82, 168)") == "rgb(20, 82, 168)"
        assert four.get("C", "rgb(18, 112, 58)") == "rgb(18, 112, 58)"
        assert four.get("H", "rgb(200, 16, 46)") == "rgb(200, 16, 46)"
        assert len(set(four.values())) == len(four)  # every suit in the hand its own colour
        assert page.evaluate(CARD_WIDTH) > normal_width * 1.15
        assert page.evaluate(INDEX_SCALE).startswith("matrix(1.55")
        # The rules page's small cards and TriPeaks' cards follow the same deck.
        page.goto(f"{base}/rules/thirteen")
        diamond = page.locator(".mini-card.suit-D").first
        assert diamond.evaluate("e => getComputedStyle(e).color") == "rgb(20, 82, 168)"
        page.goto(f"{base}/tripeaks")
        page.wait_for_selector(".card-slot .card-index")
        assert page.evaluate("() => document.documentElement.dataset.cards") == "large"
        # Kept with the player: another visit of the same browser, on a page of another kind.
        page.goto(f"{base}/stats")
        assert page.evaluate(LOOK) == ["felt", "four_colour"]


@pytest.mark.parametrize(
    ("device", "expected"),
    [({}, "felt"), ({"color_scheme": "dark"}, "dark"), ({"contrast": "more"}, "high_contrast")],
)
def test_auto_follows_the_device_until_the_player_chooses(
    browser: Any, live_server: Any, device: dict[str, str], expected: str
) -> None:
    base = live_server.url
    with window(browser, (1280, 860), **device) as page:
        page.goto(f"{base}/tripeaks")
        page.wait_for_selector(".card-slot")
        assert page.evaluate(LOOK)[0] == expected
        choose(page, base, theme="felt")  # the player's choice wins over the device's
        page.goto(f"{base}/tripeaks")
        assert page.evaluate(LOOK)[0] == "felt"
        choose(page, base, theme="auto")
        page.goto(f"{base}/tripeaks")
        assert page.evaluate(LOOK)[0] == expected


@pytest.mark.timeout(240)
@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("theme", ["dark", "high_contrast"])
def test_the_dark_and_high_contrast_themes_pass_axe(
    browser: Any, live_server: Any, theme: str, width: int
) -> None:
    from test_phone import PAGES

    base = live_server.url
    found: dict[str, list[str]] = {}
    with window(browser, (width, 800)) as page:
        page.goto(f"{base}/tripeaks")
        choose(page, base, theme=theme, deck="four_colour")
        felt = page.evaluate(BACKGROUND)
        assert page.evaluate(LOOK) == [theme, "four_colour"]
        for path in PAGES:
            page.goto(f"{base}{path}")
            page.wait_for_load_state("networkidle")
            found[path] = failing(axe_violations(page))
        page.goto(f"{base}/thirteen")
        page.wait_for_selector(".th-hand .card")
        # The small card labels of a trick, one of each suit as the page draws them, must read in
        # every theme (a trick may not have begun yet: its labels are added as the page would).
        page.evaluate(
            """() => { const item = document.createElement('li');
                 for (const code of ['3S', '4C', '5D', '6H']) { const label = document.createElement('span');
                   label.className = `th-mini suit-${code[1]}`; label.textContent = code;
                   item.append(label); }
                 document.querySelector('.th-trick').append(item); }"""
        )
        found["/thirteen in play"] = failing(axe_violations(page))
        # axe leaves text on a gradient (the felt) undecided; a label has a background of its own, so
        # its contrast is measured here: 4.5:1 at least.
        assert min(page.evaluate(LABEL_CONTRASTS)) >= 4.5, page.evaluate(LABEL_CONTRASTS)
    assert felt in ("rgb(0, 0, 0)", "rgba(0, 0, 0, 0)") if theme == "high_contrast" else True
    bad = {path: lines for path, lines in found.items() if lines}
    assert bad == {}, f"{theme} at {width} px: " + "\n".join(f"{p}: {v}" for p, v in bad.items())
