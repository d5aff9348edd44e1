"""One player on every device, in Chromium with its virtual authenticator (the DevTools protocol's
WebAuthn domain): a passkey made in one browser signs a second browser in as the same player (name,
statistics, streak), and a third browser joins by a link code. The site is opened as
``http://localhost``, the one address passkeys work on without HTTPS."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from parlour.store.daily import today

pytestmark = pytest.mark.browser

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@contextmanager
def device(browser: Any, size: tuple[int, int] = (1280, 860)) -> Iterator[tuple[Any, Any, str]]:
    """A browser of its own (a new context) with a virtual platform authenticator; yields its page, its
    DevTools session and the authenticator's id."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        session = context.new_cdp_session(page)
        session.send("WebAuthn.enable")
        added = session.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        yield page, session, added["authenticatorId"]
        assert errors == []
    finally:
        context.close()


def local(url: str) -> str:
    """The server's address as ``localhost`` (passkeys refuse an IP address)."""
    return url.replace("127.0.0.1", "localhost")


def me(page: Any, base: str) -> dict[str, Any]:
    """The page's player as ``GET /api/player`` says."""
    answer = page.request.get(f"{base}/api/player")
    assert answer.status == 200, answer.text()
    found: dict[str, Any] = answer.json()
    return found


def stats(page: Any, base: str) -> Any:
    return page.request.get(f"{base}/api/stats").json()


def test_a_passkey_signs_another_browser_in_and_a_link_code_a_third(browser: Any, live_server: Any) -> None:
    base = local(live_server.url)
    name = f"Passkey {secrets.token_hex(3)}"
    with device(browser) as (first, first_devtools, first_key):
        first.goto(f"{base}/player")
        first.fill("#name", name)
        first.locator('form[action="/player/name"] button').click()
        expect(first.locator(".notice")).to_be_visible()
        ada = me(first, base)
        assert ada["name"] == name
        # Some history to carry over: a counted attempt at today's daily deal (a streak of one day).
        store = live_server.store
        deal = store.daily_deal("tripeaks", "easy", today())
        from parlour.tripeaks.definition import TriPeaksDefinition

        new = TriPeaksDefinition().ranked(deal.code, {"daily": today().isoformat()})
        assert new.spec is not None
        game_id = store.record_game(ada["id"], TriPeaksDefinition(), new.spec)
        store.append_moves(game_id, ada["id"], 0, ["draw"])
        store.finish_game(game_id, ada["id"])
        first_stats = stats(first, base)

        first.goto(f"{base}/player")
        assert first.locator('[data-action="sign-in-passkey"]').count() == 1  # no passkey yet
        first.locator('[data-action="add-passkey"]').click()
        expect(first).to_have_url(re.compile(r"saved=passkey-added"))
        expect(first.locator(".notice")).to_contain_text("passkey")
        assert first.locator('[data-action="sign-in-passkey"]').count() == 0  # signed in: it has one
        [credential] = first_devtools.send("WebAuthn.getCredentials", {"authenticatorId": first_key})[
            "credentials"
        ]
        assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

        with device(browser, (360, 740)) as (second, second_devtools, second_key):
            # The passkey is synced to the phone (as a password manager would).
            second_devtools.send(
                "WebAuthn.addCredential", {"authenticatorId": second_key, "credential": credential}
            )
            second.goto(f"{base}/player")
            assert second.request.get(f"{base}/api/player").status == 404  # nobody yet
            second.locator('[data-action="sign-in-passkey"]').click()
            expect(second).to_have_url(re.compile(r"saved=signed-in"))
            assert me(second, base) == ada
            assert stats(second, base) == first_stats
            expect(second.locator("#streak-tripeaks")).to_be_visible()
            streak = second.locator("#streak-tripeaks ~ dl dd").first
            expect(streak).to_have_text("1")
            assert second.evaluate("document.documentElement.scrollWidth") <= 360  # the phone's width

        # A third browser without any passkey joins by a link code made on the first.
        first.locator('[data-action="link-device"]').click()
        code = first.locator('[data-role="link-code"]').inner_text().strip()
        assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code)
        assert first.locator(".qr svg").count() == 1
        address = first.locator(".link-address a").get_attribute("href")
        assert address == f"{base}/link?code={code}"
        with device(browser, (360, 740)) as (third, _, _):
            third.goto(address)  # what scanning the image opens: the code is filled in
            expect(third.locator("#link-code-input")).to_have_value(code)
            assert third.request.get(f"{base}/api/player").status == 404  # opening it changed nothing
            third.locator('[data-action="link-sign-in"]').click()
            expect(third).to_have_url(re.compile(r"saved=linked"))
            assert me(third, base) == ada
            assert stats(third, base) == first_stats

        # Every browser is listed on the player page; the first signs the others out one by one.
        first.goto(f"{base}/player")
        browsers = first.locator('[data-role="browsers"] li')
        expect(browsers).to_have_count(3)
        expect(browsers.first).to_contain_text("this browser")
        browsers.nth(1).locator("button").click()
        expect(first).to_have_url(re.compile(r"saved=browser-signed-out"))
        expect(first.locator('[data-role="browsers"] li')).to_have_count(2)
