"""Sessions: browser tokens expire when unused, a new recovery code signs out the browsers of the old
one, "sign out on every other browser" works, and cookies are Secure over HTTPS."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from parlour.server.app import create_app
from parlour.store import Store
from parlour.store import secrets as token_secrets
from parlour.store.models import TokenRow
from parlour.store.players import TOKEN_AGE
from parlour.store.rows import utcnow


def age(store: Store, token: str, by: timedelta) -> None:
    with store.engine.begin() as connection:
        connection.execute(
            update(TokenRow)
            .where(TokenRow.token_hash == token_secrets.digest(token))
            .values(created_at=utcnow() - by, used_at=utcnow() - by)
        )


def test_an_unused_token_expires_and_a_used_one_is_renewed(store: Store) -> None:
    ada = store.create_player("Ada")
    age(store, ada.token, TOKEN_AGE - timedelta(days=2))
    assert store.player_by_token(ada.token) is not None  # used: renewed
    age(store, ada.token, TOKEN_AGE + timedelta(days=1))
    assert store.player_by_token(ada.token) is None  # unused too long: expired and deleted
    assert store.player_by_token(ada.token) is None


def test_a_new_recovery_code_signs_out_the_browsers_of_the_old_one(store: Store) -> None:
    ada = store.create_player("Ada")
    elsewhere = store.recover(ada.recovery_code)
    assert store.player_by_token(elsewhere) is not None
    store.new_recovery_code(ada.player_id)
    assert store.player_by_token(elsewhere) is None
    assert store.player_by_token(ada.token) is not None  # the browser that made the player stays


def test_signing_out_every_other_browser_keeps_this_one(store: Store) -> None:
    ada = store.create_player("Ada")
    others = [store.recover(ada.recovery_code) for _ in range(3)]
    assert store.sign_out_elsewhere(ada.player_id, ada.token) == 3
    assert all(store.player_by_token(token) is None for token in others)
    assert store.player_by_token(ada.token) is not None


def test_the_player_page_signs_out_elsewhere_with_its_form(store: Store) -> None:
    with TestClient(create_app(store)) as browser:
        browser.post("/api/player")
        browser.get("/player")
        player = store.player_by_token(browser.cookies["parlour_token"])
        assert player is not None
        other = store.recover(store.new_recovery_code(player.id))
        forged = browser.post("/player/sign-out-elsewhere", follow_redirects=False)
        assert forged.status_code == 403 and store.player_by_token(other) is not None
        done = browser.post(
            "/player/sign-out-elsewhere",
            data={"csrf": browser.cookies["parlour_csrf"]},
            follow_redirects=False,
        )
        assert done.status_code == 303 and store.player_by_token(other) is None
        assert "Every other browser is signed out" in browser.get("/player?saved=signed-out").text


@pytest.mark.parametrize(
    ("base", "secure"), [("https://parlour.example", True), ("http://testserver", False)]
)
def test_cookies_are_secure_over_https(store: Store, base: str, secure: bool) -> None:
    with TestClient(create_app(store), base_url=base) as browser:
        made = browser.post("/api/player")
        page = browser.get("/")
        cookies = made.headers.get_list("set-cookie") + page.headers.get_list("set-cookie")
        assert any(c.startswith("parlour_token=") for c in cookies)
        assert any(c.startswith("parlour_csrf=") for c in cookies)
        for cookie in cookies:
            assert ("Secure" in cookie) == secure and "HttpOnly" in cookie
