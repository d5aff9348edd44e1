"""The player's pages on the real store: statistics, numbered games, the player page, outcomes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlour.server.app import create_app
from parlour.store import Store
from parlour.tripeaks.definition import TriPeaksFigures

from .lines import code_of, stuck_line, winning_line


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    app = create_app(store)
    with TestClient(app) as test_client:
        yield test_client


def form(client: TestClient, **fields: str) -> dict[str, str]:
    """A form's fields with the CSRF token the pages put in every form (the browser's cookie)."""
    if "parlour_csrf" not in client.cookies:
        client.get("/player")
    return {**fields, "csrf": client.cookies["parlour_csrf"]}


def me(client: TestClient, store: Store) -> int:
    client.post("/api/player")
    player = store.player_by_token(client.cookies["parlour_token"])
    assert player is not None
    return player.player_id


def finish(store: Store, player_id: int, number: int, moves: tuple[str, ...] | list[str]) -> str:
    game_id = store.start_game(player_id, "tripeaks", "easy", code_of(number), ["human"], numbered=number)
    store.append_moves(game_id, player_id, 0, moves)
    store.finish_game(game_id, player_id)
    return game_id


def test_statistics_page_has_the_figures_and_an_inline_chart(client: TestClient, store: Store) -> None:
    empty = client.get("/stats", headers={"Accept-Language": "fr"})
    assert empty.status_code == 200 and "Aucune partie de TriPeaks terminée" in empty.text
    player_id = me(client, store)
    finish(store, player_id, 2, winning_line(code_of(2)) or ())
    finish(store, player_id, 4, stuck_line(code_of(4)))
    page = client.get("/stats")
    assert page.status_code == 200
    assert (
        "<svg" in page.text
        and 'role="img"' in page.text
        and "http"
        not in page.text.split("<svg")[1].split("</svg>")[0].replace("http://www.w3.org/2000/svg", "")
    )
    assert page.text.count("<rect") == 2 and "50%" in page.text
    assert client.get("/api/stats").json()["tripeaks"]["easy"]["won"] == 1


def test_numbered_picker_shows_records_and_my_best(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    other = store.create_player("Zoë")
    line = winning_line(code_of(6)) or ()
    finish(store, other.player_id, 6, line)
    finish(store, player_id, 6, line[:10])
    page = client.get("/tripeaks/numbered", params={"rules": "easy", "game": 6})
    assert page.status_code == 200
    row = re.search(r'<tr id="game-6" class="highlight">(.*?)</tr>', page.text, re.S)
    assert row is not None
    assert f"Won in {len(line)} moves" in row.group(1) and "Zoë" in row.group(1)
    assert "Cards left:" in row.group(1)  # my own best, unfinished
    assert 'id="game-50"' in page.text and 'id="game-51"' not in page.text
    last = client.get("/tripeaks/numbered", params={"rules": "classic", "page": 100000})
    assert 'id="game-50000"' in last.text and "Page 1000 of 1000" in last.text
    junk = client.get("/tripeaks/numbered", params={"rules": "x", "page": "y"})
    assert junk.status_code == 200 and 'id="game-1"' in junk.text
    record = client.get("/api/numbered/tripeaks/easy/6").json()
    assert record["record"]["holder"] == "Zoë" and record["record"]["mine"] is False
    assert record["record"]["best_left"] == 0 and record["record"]["won"] is True
    assert record["mine"]["best_moves"] == 10 and record["mine"]["standing"][1] == 10
    assert client.get("/api/numbered/tripeaks/easy/50001").status_code == 404
    assert client.get("/api/numbered/thirteen/easy/6").json()["code"] == "no_such_numbered_game"
    # the address from before several games had numbered deals leads to the same record
    moved = client.get("/api/numbered/easy/6", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == "/api/numbered/tripeaks/easy/6"
    assert client.get("/api/numbered/easy/6").json() == record
    assert client.get("/api/numbered/hard/6", follow_redirects=False).status_code == 404
    for nowhere in ("/thirteen/numbered", "/nosuchgame/numbered"):
        assert client.get(nowhere).status_code == 404


def test_outcome_endpoint_tells_the_news_and_refuses_others(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    game_id = finish(store, player_id, 7, winning_line(code_of(7)) or ())
    answer = client.get(f"/api/games/{game_id}/outcome", headers={"Accept-Language": "hu"})
    assert answer.status_code == 200
    assert answer.json()["messages"] == ["Elsőként nyerted meg ezt a játékot: #7!"]
    assert answer.json()["outcome"]["first_win"] is True
    eve = store.create_player("Eve")
    theirs = finish(store, eve.player_id, 7, ["draw"])
    assert client.get(f"/api/games/{theirs}/outcome").status_code == 404
    open_game = store.start_game(player_id, "tripeaks", None, code_of(9), ["human"])
    assert client.get(f"/api/games/{open_game}/outcome").json()["code"] == "game_open"


def test_player_page_name_recovery_and_preferences(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    assert (
        client.post("/player/name", data=form(client, name="Ilona"), follow_redirects=False).status_code
        == 303
    )
    assert store.player(player_id).name == "Ilona"
    assert client.post("/player/name", data=form(client, name=" ")).status_code == 400
    shown = client.post("/player/recovery-code", data=form(client))
    code = re.search(r'<output id="recovery-code">([A-Z0-9-]+)</output>', shown.text)
    assert code is not None and shown.headers["cache-control"] == "no-store"

    other_browser = TestClient(client.app)
    other_browser.post("/api/player")
    assert store.player_by_token(other_browser.cookies["parlour_token"]).player_id != player_id  # type: ignore[union-attr]
    bad = other_browser.post("/player/recover", data=form(other_browser, code="nope"))
    assert bad.status_code == 400 and "not valid" in bad.text
    redeemed = other_browser.post(
        "/player/recover", data=form(other_browser, code=code.group(1).lower()), follow_redirects=False
    )
    assert redeemed.status_code == 303
    assert store.player_by_token(other_browser.cookies["parlour_token"]).player_id == player_id  # type: ignore[union-attr]
    assert "Ilona" in other_browser.get("/player").text

    saved = client.post(
        "/player/preferences",
        data=form(
            client,
            lang="hi",
            error_help="",
            bot_speed="fast",
            bot_strength="random",
            hint_strength="quick",
            felt="blue",
            card_back="green",
            theme="high_contrast",
            deck="four_colour",
            card_size="large",
        ),
        follow_redirects=False,
    )
    assert saved.status_code == 303
    assert store.preferences(player_id) == {
        "lang": "hi",
        "error_help": False,
        "sound": False,
        "screen_reader": False,
        "felt": "blue",
        "card_back": "green",
        "theme": "high_contrast",
        "deck": "four_colour",
        "card_size": "large",
        "bot_speed": "fast",
        "bot_strength": "random",
        "hint_strength": "quick",
    }
    forged = client.post("/player/preferences", data={"lang": "fr"}, follow_redirects=False)
    assert forged.status_code == 403 and store.preferences(player_id)["lang"] == "hi"
    other_site = client.post(
        "/player/name", data=form(client, name="Eve"), headers={"Origin": "https://evil.example"}
    )
    assert other_site.status_code == 403 and store.player(player_id).name == "Ilona"
    page = client.get("/player").text
    assert '<html lang="hi"' in page and 'data-felt="blue"' in page and 'data-back="green"' in page
    assert 'data-theme="high_contrast" data-look="high_contrast"' in page
    assert 'data-deck="four_colour" data-cards="large"' in page
    assert page.count('<option value="quick" selected>तेज़</option>') == 1  # TriPeaks' hint strength, in Hindi
    refused = client.post(
        "/player/preferences", data=form(client, lang="de", bot_speed="warp", bot_strength="x")
    )
    assert refused.status_code == 400
    assert store.preferences(player_id)["bot_speed"] == "fast"
    for bad in ("expert", ""):
        refused = client.post("/player/preferences", data=form(client, hint_strength=bad))
        assert refused.status_code == 400 and store.preferences(player_id)["hint_strength"] == "quick"


def test_leaving_a_numbered_game_tells_the_news(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    line = winning_line(code_of(6)) or ()
    game_id = store.start_game(player_id, "tripeaks", "easy", code_of(6), ["human"], numbered=6)
    store.append_moves(game_id, player_id, 0, line[:7])
    eve = store.create_player("Eve")
    theirs = store.start_game(eve.player_id, "tripeaks", "easy", code_of(6), ["human"], numbered=6)
    assert client.post(f"/api/games/{theirs}/leave").status_code == 404
    assert store.game_record(theirs, eve.player_id).status == "open"
    left = client.post(f"/api/games/{game_id}/leave", headers={"Accept-Language": "fr"})
    assert left.status_code == 200
    assert left.json()["outcome"]["status"] == "left" and left.json()["outcome"]["holds_record"] is True
    assert left.json()["messages"] == ["Vous détenez le meilleur résultat de la partie n° 6."]
    assert client.post(f"/api/games/{game_id}/leave").json()["outcome"] == left.json()["outcome"]
    picker = client.get("/tripeaks/numbered", headers={"Accept-Language": "hi"})
    assert "आपका सबसे हाल का गिना हुआ गेम" in picker.text
    assert "गेम #6 का सबसे अच्छा परिणाम आपके पास है।" in picker.text


@pytest.mark.parametrize("cookie", ["forged", "A" * 43, "' or 1=1 --"])
def test_a_bad_or_foreign_token_is_nobody_and_gets_a_fresh_player_not_someone_elses(
    client: TestClient, store: Store, cookie: str
) -> None:
    ada = store.create_player("Ada")
    finish(store, ada.player_id, 6, winning_line(code_of(6)) or ())
    client.cookies.set("parlour_token", cookie)
    page = client.get("/player")
    assert page.status_code == 200 and "Ada" not in page.text
    assert "parlour_token" not in page.cookies  # a page view makes nobody
    assert "recovery-code" not in page.text  # no player, so nothing to carry to another browser
    made = client.post("/api/player")
    assert made.status_code == 201 and made.json()["created"] is True
    fresh_token = made.cookies["parlour_token"]
    assert fresh_token != cookie
    newcomer = store.player_by_token(fresh_token)
    assert newcomer is not None and newcomer.player_id != ada.player_id
    assert store.statistics(newcomer.player_id).of("tripeaks", TriPeaksFigures).rules["all"].played == 0
    again = client.post("/api/player")
    assert again.status_code == 200 and again.json()["created"] is False
    assert "parlour_token" not in again.cookies


def test_every_page_links_to_the_players_pages(client: TestClient) -> None:
    home = client.get("/", headers={"Accept-Language": "hu"})
    for href, text in (
        ("/tripeaks/numbered", "Számozott játékok"),
        ("/stats", "Statisztika"),
        ("/player", "Játékos"),
    ):
        assert f'href="{href}"' in home.text and text in home.text
    assert 'href="/stats" aria-current="page"' in client.get("/stats").text


def test_play_button_starts_the_numbered_game(store: Store) -> None:
    with TestClient(create_app(store)) as browser:
        player_id = me(browser, store)
        started = browser.post(
            "/tripeaks/numbered/play",
            data=form(browser, rules="classic", number="321"),
            follow_redirects=False,
        )
        assert started.status_code == 303 and started.headers["location"] == "/tripeaks"
        [game] = store.open_games(player_id, "tripeaks")
        assert (game.numbered, game.rules_key, game.code) == (321, "classic", code_of(321, "classic"))
        wrong = browser.post(
            "/tripeaks/numbered/play",
            data=form(browser, rules="classic", number="50001"),
            follow_redirects=False,
        )
        assert wrong.status_code == 303 and wrong.headers["location"].startswith("/tripeaks/numbered")
        assert [g.game_id for g in store.open_games(player_id, "tripeaks")] == [game.game_id]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/preferences", {"sound": False}),
        ("/api/thirteen/settings", {"speed": "instant"}),
        ("/api/tables", {}),
        ("/api/games/tripeaks", {}),
        ("/player/name", {"name": "Ilona"}),
        ("/tripeaks/numbered/play", {"rules": "easy", "number": "5"}),
        ("/player/recovery-code", {}),
    ],
)
def test_whichever_action_makes_the_player_gives_its_cookie(
    store: Store, path: str, body: dict[str, str]
) -> None:
    """A player made without its cookie would be lost at once: every first action gives it."""
    with TestClient(create_app(store)) as visitor:
        if path.startswith("/api/"):
            answer = visitor.post(path, json=body, follow_redirects=False)
        else:
            answer = visitor.post(path, data=form(visitor, **body), follow_redirects=False)
        assert answer.status_code < 400, answer.text
        [player] = store.all_players()
        assert store.player_by_token(answer.cookies["parlour_token"]).player_id == player.player_id  # type: ignore[union-attr]
        assert "parlour_token" not in visitor.post("/api/preferences", json={"sound": True}).cookies
        assert len(store.all_players()) == 1
