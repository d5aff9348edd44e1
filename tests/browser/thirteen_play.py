"""Playing Thirteen through the page as a person does, for the browser tests."""

from __future__ import annotations

from typing import Any

POLL = 100
"""Milliseconds between checks of a page's condition. Polling on animation frames (Playwright's default)
stalls when a starved browser paints no frames: a timer keeps checking on a loaded machine."""


ROUNDS_OVER = "() => document.querySelectorAll('[data-role=scores] tbody tr').length"
"""How many rounds the page's score table shows as over."""


def lead_lowest_card(page: Any) -> None:
    """Raise the lowest card; press Play if the selection rule waits for it (it could grow).

    The play is done when the card has left the hand, or when it ended the round: the hand shown then is
    the next round's, which may hold the same card again.
    """
    lowest = page.locator(".th-hand .card").first
    code = lowest.get_attribute("data-card")
    rounds = page.evaluate(ROUNDS_OVER)
    played = (
        '([code, rounds]) => !document.querySelector(`.th-hand [data-card="${code}"]`)'
        f" || ({ROUNDS_OVER})() > rounds"
    )
    lowest.click()
    page.wait_for_function(
        f"([code, rounds]) => ({played})([code, rounds])"
        " || document.querySelector('.th-table').dataset.verdict === 'wait'",
        arg=[code, rounds],
        polling=POLL,
    )
    if not page.evaluate(played, [code, rounds]):
        page.click('[data-action="play"]')
        page.wait_for_function(played, arg=[code, rounds], polling=POLL)


def play_until(page: Any, done: str, what: str) -> None:
    """Play as the page's person until the script expression ``done`` holds: pass when the page lets
    them, lead the lowest card when it does not.

    Raises:
        AssertionError: ``what`` (the round, the match) did not end within 60 turns.
    """
    for _ in range(60):
        page.wait_for_function(
            f"() => !!document.querySelector('.th-me.is-turn') || ({done})", polling=POLL, timeout=30_000
        )
        if page.evaluate(f"() => {done}"):
            return
        if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
            version = page.evaluate("() => document.querySelector('.th-table').dataset.version")
            page.click('[data-action="pass"]')
            page.wait_for_function(
                "(v) => document.querySelector('.th-table').dataset.version !== v", arg=version, polling=POLL
            )
        else:
            lead_lowest_card(page)
    raise AssertionError(f"{what} did not end")
