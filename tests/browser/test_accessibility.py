"""WCAG 2.2 AA, checked by axe-core in Chromium: every page of both games, at 360 and 1280 px, in every
language, has no violation of impact "serious" or "critical".

axe-core comes inside the ``axe-playwright-python`` package (its ``axe.min.js``): nothing is fetched. The
pages are those a new player reaches (the phone test's list) and those reached from a finished game: its
review, its challenge, a friends' table gathering and a table in play, and the player's own page.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_phone import PAGES, finished_game_pages, window

from parlour.i18n import LANGUAGES

pytestmark = pytest.mark.browser

# Impacts that fail the test; "moderate" and "minor" are reported in the message of a failure only.
FAILING = ("serious", "critical")
# WCAG 2.0, 2.1 and 2.2 at levels A and AA: the standard issue 51 holds the pages to.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Run axe-core on ``page`` as it is now; return its violations (each with id, impact, nodes)."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    results = Axe().run(page, options=options)
    return list(results.response["violations"])


def failing(violations: list[dict[str, Any]]) -> list[str]:
    """The violations of a failing impact, one line each: rule, impact, and the first nodes' selectors."""
    lines = []
    for violation in violations:
        if violation["impact"] in FAILING:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
            summary = violation["nodes"][0].get("failureSummary", "").replace("\n", " ")[:200]
            lines.append(f"{violation['id']} ({violation['impact']}): {targets} {summary}")
    return lines


@pytest.mark.timeout(300)
@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_violation_on_any_page(browser: Any, live_server: Any, lang: str, width: int) -> None:
    found: dict[str, list[str]] = {}
    checked = 0
    with window(browser, (width, 800)) as page:
        page.goto(f"{live_server.url}/language/{lang}?next=/")
        for path in PAGES:
            page.goto(path if path.startswith("http") else f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            found[path] = failing(axe_violations(page))
            checked += 1
        for path in finished_game_pages(live_server, page):  # the player exists once a game page opened
            page.goto(path if path.startswith("http") else f"{live_server.url}{path}")
            page.wait_for_load_state("networkidle")
            found[path] = failing(axe_violations(page))
            checked += 1
        # A friends' table gathering its players (the host's tools), then in play with computer players.
        made = page.request.post(f"{live_server.url}/api/tables", data={"name": "Ana"}).json()
        page.goto(f"{live_server.url}{made['url']}")
        page.wait_for_selector('[data-role="seating"]:not([hidden])')
        found["a friends' table"] = failing(axe_violations(page))
        page.goto(f"{live_server.url}/thirteen")
        page.wait_for_selector(".th-hand .card")
        found["/thirteen in play"] = failing(axe_violations(page))
        page.goto(f"{live_server.url}/tripeaks")
        page.wait_for_selector("#new-game-button")
        page.locator("#new-game-button").click()
        found["/tripeaks New game dialog"] = failing(axe_violations(page))
        # The screen-reader mode (its log and command box shown) and each game's list of keys.
        page.request.post(f"{live_server.url}/api/preferences", data={"screen_reader": True})
        for path, ready in (("/thirteen", ".th-hand .card"), ("/tripeaks", ".card-slot.free")):
            page.goto(f"{live_server.url}{path}")
            page.wait_for_selector(ready)
            page.wait_for_selector("[data-role=command]")
            found[f"{path} in the screen-reader mode"] = failing(axe_violations(page))
            page.keyboard.press("?")
            page.wait_for_selector("dialog.keys-dialog[open]")
            found[f"{path} keys"] = failing(axe_violations(page))
        checked += 7
    bad = {path: lines for path, lines in found.items() if lines}
    assert checked >= len(PAGES) + 9
    assert bad == {}, f"{lang} at {width} px: " + "\n".join(f"{p}: {v}" for p, v in bad.items())
