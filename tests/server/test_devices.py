"""One player on every device over HTTP (decision 0064): passkeys made and used by a software
authenticator, and each way an answer can be wrong (a replayed, expired or foreign challenge, another
origin or RP id, no user verification, a cloned authenticator) refused with a clear error and nothing
changed; link codes used or expired; the merge offered after a sign-in; the download and Delete me."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from soft_authenticator import SoftAuthenticator
from sqlalchemy import func, select, update

from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.store import Store
from parlour.store.models import AuthChallengeRow, LinkCodeRow, PasskeyRow, PlayerRow, TokenRow
from parlour.store.rows import utcnow

SITE = "http://localhost"
Browser = Callable[..., TestClient]


@pytest.fixture
def browsers(store: Store) -> Iterator[Browser]:
    """Makes clients of one site at ``http://localhost`` (each a browser of its own)."""
    app = create_app(store, games=default_registry())
    made: list[TestClient] = []

    def make(
        base_url: str = SITE, user_agent: str = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
    ) -> TestClient:
        client = TestClient(app, base_url=base_url, headers={"User-Agent": user_agent})
        client.__enter__()
        made.append(client)
        return client

    yield make
    for client in made:
        client.__exit__(None, None, None)


def form(client: TestClient, **fields: str) -> dict[str, str]:
    if "parlour_csrf" not in client.cookies:
        client.get("/player")
    return {**fields, "csrf": client.cookies["parlour_csrf"]}


def player_of(client: TestClient) -> dict[str, Any] | None:
    answer = client.get("/api/player")
    return answer.json() if answer.status_code == 200 else None


def rows(store: Store, model: Any) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(model)).scalar_one())


def register(client: TestClient, authenticator: SoftAuthenticator, **lies: Any) -> Any:
    options = client.post("/api/passkeys/register/options").json()["publicKey"]
    return client.post("/api/passkeys/register", json=authenticator.create(options, **lies))


def sign_in(client: TestClient, authenticator: SoftAuthenticator, **lies: Any) -> Any:
    options = client.post("/api/passkeys/sign-in/options").json()["publicKey"]
    return client.post("/api/passkeys/sign-in", json=authenticator.get(options, **lies))


def test_a_passkey_made_in_one_browser_signs_another_in(browsers: Browser, store: Store) -> None:
    laptop, phone = browsers(), browsers(user_agent="Mozilla/5.0 (Linux; Android 15) Chrome/140.0 Mobile")
    key = SoftAuthenticator(SITE)
    answer = register(laptop, key)
    assert answer.status_code == 200 and answer.json() == {"passkeys": 1}
    ada = player_of(laptop)
    assert ada is not None
    assert player_of(phone) is None
    signed = sign_in(phone, key)
    assert signed.status_code == 200, signed.text
    assert signed.json() == {"player": ada, "merge": False}
    assert player_of(phone) == ada
    page = laptop.get("/player").text
    assert "Chrome on Android" in page and "Firefox on Linux" in page  # the browsers, by name only
    assert "testclient" not in page and "127.0.0.1" not in page
    assert 'data-action="sign-in-passkey"' not in page  # this player has a passkey: signed in


@pytest.mark.parametrize(
    "lie, said",
    [
        ({"origin": "https://evil.example"}, "origin"),
        ({"rp_id": "evil.example"}, "RP ID"),
        ({"verified": False}, "verif"),
    ],
)
def test_a_wrong_origin_rp_id_or_unverified_person_adds_no_passkey(
    browsers: Browser, store: Store, lie: dict[str, Any], said: str
) -> None:
    client = browsers()
    answer = register(client, SoftAuthenticator(SITE), **lie)
    assert answer.status_code == 400 and answer.json()["code"] == "passkey_refused"
    assert said.lower() in answer.json()["detail"].lower()
    assert rows(store, PasskeyRow) == 0


@pytest.mark.parametrize(
    "lie, said",
    [
        ({"origin": "https://evil.example"}, "origin"),
        ({"rp_id": "evil.example"}, "RP ID"),
        ({"verified": False}, "verif"),
        ({"counter": 0}, "sign count"),  # a clone: its counter did not grow past the one kept
    ],
)
def test_a_wrong_answer_signs_nobody_in(
    browsers: Browser, store: Store, lie: dict[str, Any], said: str
) -> None:
    owner, stranger = browsers(), browsers()
    key = SoftAuthenticator(SITE)
    register(owner, key)
    assert sign_in(stranger, key).status_code == 200  # the counter is 1 now
    other = browsers()
    answer = sign_in(other, key, **lie)
    assert answer.status_code == 400 and answer.json()["code"] == "passkey_refused", answer.text
    assert said.lower() in answer.json()["detail"].lower()
    assert answer.json()["message"].startswith("This passkey cannot be used here")
    assert player_of(other) is None and "parlour_token" not in other.cookies
    with store.engine.connect() as connection:
        assert connection.execute(select(PasskeyRow.sign_count)).scalar_one() == 1  # nothing changed


def test_a_challenge_is_answered_once_and_only_for_what_it_was_made(browsers: Browser, store: Store) -> None:
    owner, thief = browsers(), browsers()
    key = SoftAuthenticator(SITE)
    register(owner, key)
    options = owner.post("/api/passkeys/sign-in/options").json()["publicKey"]
    answer = key.get(options)
    assert owner.post("/api/passkeys/sign-in", json=answer).status_code == 200
    replayed = thief.post("/api/passkeys/sign-in", json=answer)  # the same answer again
    assert replayed.status_code == 400 and "answered already" in replayed.json()["detail"]
    assert player_of(thief) is None
    # A challenge handed out for signing in cannot add a passkey, and another player's cannot either.
    thief.post("/api/player")
    sign_in_options = thief.post("/api/passkeys/sign-in/options").json()["publicKey"]
    foreign = thief.post(
        "/api/passkeys/register",
        json=SoftAuthenticator(SITE).create(
            {**options, **sign_in_options, "rp": {"id": "localhost"}, "user": {"id": "AAAA"}}
        ),
    )
    assert foreign.status_code == 400 and "something else" in foreign.json()["detail"]
    owners = owner.post("/api/passkeys/register/options").json()["publicKey"]
    stolen = thief.post("/api/passkeys/register", json=SoftAuthenticator(SITE).create(owners))
    assert stolen.status_code == 400 and "something else" in stolen.json()["detail"]
    never = dict(options, challenge="bm90LWhhbmRlZC1vdXQ")
    unknown = thief.post("/api/passkeys/sign-in", json=key.get(never))
    assert unknown.status_code == 400 and "not handed out" in unknown.json()["detail"]
    assert rows(store, PasskeyRow) == 1


def test_an_expired_challenge_is_refused(browsers: Browser, store: Store) -> None:
    owner, other = browsers(), browsers()
    key = SoftAuthenticator(SITE)
    register(owner, key)
    options = other.post("/api/passkeys/sign-in/options").json()["publicKey"]
    with store.engine.begin() as connection:
        connection.execute(update(AuthChallengeRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    answer = other.post("/api/passkeys/sign-in", json=key.get(options))
    assert answer.status_code == 400 and "expired" in answer.json()["detail"]
    assert player_of(other) is None


def test_passkeys_are_off_where_the_site_has_no_name(browsers: Browser, store: Store) -> None:
    client = browsers("http://127.0.0.1:8000")
    answer = client.post("/api/passkeys/sign-in/options")
    assert answer.status_code == 409 and answer.json()["code"] == "passkeys_off"
    assert "--public-url" in answer.json()["message"]
    page = client.get("/player").text
    assert re.search(r'data-action="add-passkey" disabled', page)


def test_the_public_url_is_the_relying_party(store: Store) -> None:
    app = create_app(store, games=default_registry(), public_url="https://cards.example/")
    with TestClient(app, base_url="https://cards.example") as client:
        options = client.post("/api/passkeys/register/options").json()["publicKey"]
        assert options["rp"]["id"] == "cards.example"
        assert options["authenticatorSelection"]["userVerification"] == "required"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        key = SoftAuthenticator("https://cards.example")
        assert client.post("/api/passkeys/register", json=key.create(options)).status_code == 200
        wrong = SoftAuthenticator("http://localhost")
        options = client.post("/api/passkeys/register/options").json()["publicKey"]
        assert client.post("/api/passkeys/register", json=wrong.create(options)).status_code == 400


def test_a_malformed_answer_is_a_clear_400(browsers: Browser) -> None:
    client = browsers()
    client.post("/api/passkeys/register/options")
    for body in (
        {},
        {"id": "x", "rawId": "x", "type": "public-key", "response": {"clientDataJSON": "!!"}},
        [1, 2],
    ):
        answer = client.post("/api/passkeys/register", json=body)
        assert answer.status_code == 400 and answer.json()["code"] in ("invalid_input", "passkey_refused")
    deep = '{"a":' * 3000 + "1" + "}" * 3000  # nested deeper than any parser should follow
    for address in ("/api/passkeys/sign-in", "/api/passkeys/register"):
        answer = client.post(address, content=deep, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and answer.json()["code"] in ("bad_json", "invalid_input")
    unknown = {"id": "eA", "rawId": "eA", "type": "public-key", "response": {"clientDataJSON": "e30"}}
    answer = client.post("/api/passkeys/sign-in", json=unknown)
    assert answer.status_code == 400 and answer.json()["code"] == "passkey_refused"


def link_code(client: TestClient) -> str:
    page = client.post("/player/link", data=form(client)).text
    found = re.search(r'data-role="link-code">([A-Z0-9-]+)<', page)
    assert found is not None and "<svg" in page
    return found.group(1)


def test_a_link_code_works_once_and_not_after_ten_minutes(browsers: Browser, store: Store) -> None:
    laptop, phone, tablet = browsers(), browsers(), browsers()
    laptop.post("/api/player")
    code = link_code(laptop)
    assert phone.get(f"/link?code={code}").status_code == 200 and player_of(phone) is None
    answer = phone.post(
        "/link", data=form(phone, code=code.lower().replace("-", " ")), follow_redirects=False
    )
    assert answer.status_code == 303 and player_of(phone) == player_of(laptop)
    again = tablet.post("/link", data=form(tablet, code=code))
    assert again.status_code == 400 and "not valid" in again.text and player_of(tablet) is None
    code = link_code(laptop)
    with store.engine.begin() as connection:
        connection.execute(update(LinkCodeRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    late = tablet.post("/link", data=form(tablet, code=code))
    assert late.status_code == 400 and player_of(tablet) is None
    assert tablet.post("/link", data={"code": code}).status_code == 403  # no CSRF token: refused


def test_link_codes_cannot_be_guessed_quickly(browsers: Browser) -> None:
    guesser = browsers()
    statuses = [
        guesser.post("/link", data=form(guesser, code=f"AAAA-AA{n:02d}")).status_code for n in range(12)
    ]
    assert statuses[:10] == [400] * 10 and statuses[-1] == 429


def test_signing_in_offers_to_bring_the_browsers_games_in(browsers: Browser, store: Store) -> None:
    laptop, phone = browsers(), browsers()
    key = SoftAuthenticator(SITE)
    register(laptop, key)
    ada = player_of(laptop)
    assert ada is not None
    phone.post("/api/player")
    before = player_of(phone)
    assert before is not None
    game = store.start_game(before["id"], "tripeaks", "easy", "TP1-E-AAAAAAB", ["human"])
    store.append_moves(game, before["id"], 0, ["draw"])
    store.finish_game(game, before["id"])
    signed = sign_in(phone, key)
    assert signed.json()["merge"] is True and player_of(phone) == ada
    page = phone.get("/player").text
    assert 'data-action="merge"' in page
    merged = phone.post("/player/merge", data=form(phone), follow_redirects=False)
    assert merged.status_code == 303 and "merged" in merged.headers["location"]
    assert [played.game_id for played in store.finished_games(ada["id"])] == [game]
    with store.engine.connect() as connection:
        assert connection.execute(select(PlayerRow).where(PlayerRow.id == before["id"])).first() is None
    assert 'data-action="merge"' not in phone.get("/player").text  # offered once


def test_a_browser_is_signed_out_by_its_own_button(browsers: Browser, store: Store) -> None:
    laptop, phone = browsers(), browsers()
    laptop.post("/api/player")
    code = link_code(laptop)
    phone.post("/link", data=form(phone, code=code))
    page = laptop.get("/player").text
    ids = re.findall(r'action="/player/browsers/([0-9a-f]+)/sign-out"', page)
    assert len(ids) == 2 and rows(store, TokenRow) == 2
    laptop.post(f"/player/browsers/{ids[1]}/sign-out", data=form(laptop))
    assert player_of(phone) is None and player_of(laptop) is not None
    assert laptop.post("/player/browsers/ffffffffffff/sign-out", data=form(laptop)).status_code == 200
    assert rows(store, TokenRow) == 1


def test_download_and_delete_me(browsers: Browser, store: Store) -> None:
    client, friend = browsers(), browsers()
    client.post("/api/player")
    register(client, SoftAuthenticator(SITE))
    me = player_of(client)
    assert me is not None
    download = client.get("/player/data.json")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    data = download.json()
    assert data["player_id"] == me["id"] and len(data["rows"]["passkeys"]) == 1
    assert friend.get("/player/data.json").status_code == 404  # a browser without a player
    refused = client.post("/player/delete", data=form(client))
    assert refused.status_code == 400 and player_of(client) == me  # the box was not ticked
    gone = client.post("/player/delete", data=form(client, confirm="on"), follow_redirects=False)
    assert gone.status_code == 303 and player_of(client) is None
    with store.engine.connect() as connection:
        assert connection.execute(select(PlayerRow).where(PlayerRow.id == me["id"])).first() is None
    assert rows(store, PasskeyRow) == 0 and rows(store, TokenRow) == 0


def test_a_player_at_a_table_leaves_it_before_being_deleted(browsers: Browser, store: Store) -> None:
    client = browsers()
    client.post("/api/player")
    me = player_of(client)
    assert me is not None
    seat = {"kind": "person", "name": "Ada", "player": me["id"], "token_hash": None, "strength": None}
    store.create_table("thirteen", me["id"], {}, [seat])
    refused = client.post("/player/delete", data=form(client, confirm="on"))
    assert refused.status_code == 409 and "leave it first" in refused.text
    assert player_of(client) == me


def test_keeping_the_players_apart_retires_the_other_token(browsers: Browser, store: Store) -> None:
    laptop, phone = browsers(), browsers()
    key = SoftAuthenticator(SITE)
    register(laptop, key)
    phone.post("/api/player")
    before = player_of(phone)
    assert before is not None
    game = store.start_game(before["id"], "tripeaks", "easy", "TP1-E-AAAAAAB", ["human"])
    store.finish_game(game, before["id"])
    old_token = phone.cookies["parlour_token"]
    assert sign_in(phone, key).json()["merge"] is True
    phone.post("/player/merge/decline", data=form(phone))
    assert store.player_by_token(old_token) is None and store.player(before["id"]).id == before["id"]
    assert 'data-action="merge"' not in phone.get("/player").text
