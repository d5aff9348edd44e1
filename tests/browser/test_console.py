"""Opening a game is quiet: the browser's console gets no error and no warning before any gesture,
even when a computer player's play asks for its sound before the person has touched the page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def quiet_page(browser: Any, live_server: Any) -> Iterator[tuple[Any, list[str]]]:
    """A phone-sized page of a new player, and every console warning and error it logs."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    said: list[str] = []
    page.on(
        "console",
        lambda message: (
            said.append(f"{message.type}: {message.text}") if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: said.append(f"pageerror: {error}"))
    try:
        yield page, said
    finally:
        context.close()


def test_tripeaks_opens_without_console_warnings(quiet_page: tuple[Any, list[str]], live_server: Any) -> None:
    page, said = quiet_page
    page.goto(f"{live_server.url}/tripeaks")
    page.locator("#board .card-slot.free").first.wait_for()
    page.wait_for_timeout(500)  # the deal's sound is asked for just after the cards appear
    assert said == []


def test_a_sound_asked_for_before_any_gesture_is_skipped_quietly(
    quiet_page: tuple[Any, list[str]], live_server: Any
) -> None:
    """A computer player's play can come before the person has touched the page: its sound is skipped
    rather than making an audio context the browser refuses to start (and warns about)."""
    page, said = quiet_page
    # Playwright's own evaluate counts as a gesture, so the sounds are asked for by a script the page
    # runs itself once it has loaded, as the game's script does when a play arrives.
    page.add_init_script(
        """addEventListener("load", async () => {
            const sounds = await import("/static/js/sounds.js");
            for (const name of ["play", "bomb", "win"]) sounds.sound(name);
            globalThis.parlourSoundsAsked = { active: navigator.userActivation.hasBeenActive };
        });"""
    )
    page.goto(f"{live_server.url}/tripeaks")
    page.wait_for_function("globalThis.parlourSoundsAsked !== undefined")
    assert page.evaluate("globalThis.parlourSoundsAsked.active") is False  # the case this test is about
    page.wait_for_timeout(300)
    assert said == []
