"""TriPeaks over the socket: every action and refusal, recording, resuming, the page and its options."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from scripted_deals import chain_deal, chain_moves

from conftest import page_data
from parlour.games.registry import Registry
from parlour.server.app import create_app
from parlour.tripeaks.definition import TriPeaksDefinition


def start(client: TestClient, lang: str = "en", **options: Any) -> str:
    response = client.post(f"/api/games/tripeaks?lang={lang}", json=options)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game"]
    return game_id


class Table:
    """One connected page: sends actions and returns the server's answers."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        socket.send_json({"type": "hello", "v": None})
        self.state = socket.receive_json()
        assert self.state["type"] == "state"
        self.view = self.state["view"]

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self.socket.send_json({"type": "action", "action": action, "ref": 1})
        answer: dict[str, Any] = self.socket.receive_json()
        if answer["type"] == "event":
            self.view = answer["view"]
            assert self.socket.receive_json()["type"] == "ack"
        return answer

    def move(self, text: str) -> dict[str, Any]:
        return self.act({"move": text})


def position_of(view: dict[str, Any], card: str) -> int:
    return next(p for p, slot in enumerate(view["tableau"]) if slot["card"] == card and not slot["removed"])


def test_the_code_of_the_spec_deals_its_check_value(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        view = Table(socket).view
    bottom = [slot["card"] for slot in view["tableau"][18:]]
    assert bottom == ["2C", "AD", "6S", "KC", "KH", "TH", "TS", "JS", "TD", "8S"]
    assert view["discard"] == ["QC"] and view["stock"] == 23 and view["code"] == "TP1-E-AAAAAAB"
    assert all(slot["card"] is None for slot in view["tableau"][:18])


def test_remove_draw_undo_and_their_events(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        table = Table(socket)
        removed = table.act({"position": position_of(table.view, "KC")})
        assert removed["name"] == "remove" and removed["data"]["card"] == "KC" and removed["v"] == 1
        assert table.view["discard"][-1] == "KC" and table.view["score"] == 499 and table.view["moves"] == 1
        drawn = table.move("draw")
        assert drawn["name"] == "draw" and drawn["data"]["card"] == table.view["discard"][-1]
        assert table.view["stock"] == 22
        undone = table.move("undo")
        assert undone["name"] == "undo" and undone["data"] == {"undone": "draw"}
        assert table.view["stock"] == 23 and table.view["moves"] == 2 and table.view["discard"][-1] == "KC"
        by_text = table.move("A♦")
        assert by_text["data"]["card"] == "AD"
        turned = table.move("2c")  # uncovers row-3 position 9
        assert turned["data"]["flipped"] == [{"position": 9, "card": "JC"}]
        undone = table.move("undo")
        assert undone["data"] == {"undone": "2C", "position": 18, "hidden": [9]}
        assert table.view["tableau"][9]["card"] is None


@pytest.mark.parametrize(
    ("lang", "not_adjacent", "blocked"),
    [
        ("hi", "दर्जा ठीक एक अधिक या एक कम होना चाहिए", "यह पत्ता अवरुद्ध है"),
        ("hu", "Eggyel magasabb vagy alacsonyabb értékűnek kell lennie", "Ez a lap blokkolva van"),
        ("en", "Rank must be exactly one higher or lower", "This card is blocked"),
    ],
)
def test_refused_taps_are_explained_in_the_page_language(
    tripeaks_client: TestClient, lang: str, not_adjacent: str, blocked: str
) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}?lang={lang}") as socket:
        table = Table(socket)
        error = table.act({"position": position_of(table.view, "6S")})
        assert (error["type"], error["code"], error["message"]) == ("error", "not_adjacent", not_adjacent)
        error = table.act({"position": 0})
        assert (error["code"], error["message"]) == ("blocked", blocked)
        assert "QC" not in error["detail"].split()  # nothing about the face-down card


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"position": 28}, "invalid_input"),
        ({"position": -1}, "invalid_input"),
        ({"position": "3"}, "invalid_input"),
        ({"position": True}, "invalid_input"),
        ({"position": 1.5}, "invalid_input"),
        ({"move": "XX"}, "invalid_card"),
        ({"move": 7}, "invalid_input"),
        ({"move": "undo"}, "nothing_to_undo"),
        ({"move": "QC"}, "blocked"),
        ({"move": "2C", "position": 18}, "invalid_input"),
        ({}, "invalid_input"),
        ({"cheat": "reveal"}, "invalid_input"),
    ],
)
def test_bad_actions_change_nothing(tripeaks_client: TestClient, action: dict[str, Any], code: str) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        table = Table(socket)
        before = table.view
        answer = table.act(action)
        assert answer["type"] == "error" and answer["code"] == code and answer["message"]
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["view"] == before


def test_drawing_the_whole_stock_ends_stuck_then_undo_reopens(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, deal=chain_deal().to_text())
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        table = Table(socket)
        for _ in range(23):
            table.move("draw")
        assert table.view["status"] == "stuck" and not table.view["can_draw"]
        assert table.move("draw")["code"] == "stock_empty"
        table.move("undo")
        assert table.view["status"] == "playing" and table.view["stock"] == 1


def test_a_scripted_deal_is_won_and_then_over(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, deal=chain_deal().to_text())
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        table = Table(socket)
        for card in chain_moves():
            event = table.act({"position": position_of(table.view, card)})
            assert event["type"] == "event", event
        assert table.view["status"] == "won" and table.view["score"] == 772
        assert event["data"]["peak_cleared"] and not table.view["can_undo"]
        assert table.move("undo")["code"] == "game_over"


def test_explicit_layouts_are_refused_by_the_real_server(real_store: Any) -> None:
    app = create_app(real_store, games=Registry([TriPeaksDefinition()]), routers=[])
    with TestClient(app) as client:
        answer = client.post("/api/games/tripeaks", json={"deal": chain_deal().to_text()})
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_input"


@pytest.mark.parametrize(
    ("options", "code", "french"),
    [
        (
            {"code": "TP1-X-AAAAAAB"},
            "invalid_code",
            "Ce n’est pas un code de donne\u00a0: un code ressemble à TP1-E-AAAAAAB",
        ),
        ({"code": 12}, "invalid_code", None),
        ({"number": 0}, "invalid_number", "Les parties numérotées vont de 1 à 50 000"),
        ({"number": 50_001}, "invalid_number", None),
        ({"number": "12"}, "invalid_number", None),
        ({"rules": "hard"}, "invalid_rules", "Choisissez Facile ou Classique"),
        ({"rules": 1}, "invalid_rules", None),
        ({"variants": ["flying"]}, "invalid_variant", "Variante inconnue"),
        ({"variants": "joker"}, "invalid_variant", None),
        ({"colour": "red"}, "invalid_input", None),
    ],
)
def test_new_game_options_are_checked(
    tripeaks_client: TestClient, options: dict[str, Any], code: str, french: str | None
) -> None:
    answer = tripeaks_client.post("/api/games/tripeaks?lang=fr", json=options)
    assert answer.status_code == 400 and answer.json()["code"] == code
    if french is not None:
        assert answer.json()["message"] == french


def test_numbered_games_variants_and_random_deals(tripeaks_client: TestClient) -> None:
    numbered = start(tripeaks_client, number=123, rules="classic")
    with tripeaks_client.websocket_connect(f"/ws/{numbered}") as socket:
        view = Table(socket).view
    assert view["numbered"] == 123 and view["code"] == "TP1-C-AAAAAET" and view["rules"] == "classic"
    opened = start(tripeaks_client, variants=["open_peaks", "empty_discard"])
    with tripeaks_client.websocket_connect(f"/ws/{opened}") as socket:
        view = Table(socket).view
    assert all(slot["card"] for slot in view["tableau"]) and view["discard"] == [] and view["stock"] == 24
    assert view["code"].endswith("-OW")


def test_moves_are_durable_before_the_ack_and_games_resume_after_a_restart(
    tripeaks_client: TestClient, real_store: Any
) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    player = real_store.player_by_token(tripeaks_client.cookies["parlour_token"])
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        table = Table(socket)
        for move in ("KC", "AD", "draw", "undo"):
            table.move(move)
            assert real_store.game_record(game_id, player.id).moves[-1] == move
        before = table.view

    restarted = create_app(real_store, games=Registry([TriPeaksDefinition()]), routers=[])
    token = tripeaks_client.cookies["parlour_token"]
    again = TestClient(restarted, cookies={"parlour_token": token})
    with again:
        page = again.get("/tripeaks")
        assert game_id in page.text
        with again.websocket_connect(f"/ws/{game_id}") as socket:
            assert Table(socket).view == before


def test_a_new_game_leaves_the_previous_one(tripeaks_client: TestClient, real_store: Any) -> None:
    first = start(tripeaks_client, number=7)
    second = start(tripeaks_client, number=8)
    player = real_store.player_by_token(tripeaks_client.cookies["parlour_token"])
    assert real_store.game_record(first, player.id).status == "left"
    assert [game.id for game in real_store.open_games(player.id, "tripeaks")] == [second]


def test_the_page_shows_the_open_game_and_deals_codes_from_the_address(tripeaks_client: TestClient) -> None:
    page = tripeaks_client.get("/tripeaks")
    assert page.status_code == 200 and '"game":' in page.text
    again = tripeaks_client.get("/tripeaks")
    game_id = page.text.split('"game": "')[1].split('"')[0]
    assert game_id in again.text
    # A link never ends the game in play: it asks, and only the confirmation's form deals.
    asked = tripeaks_client.get("/tripeaks", params={"code": "TP1-C-AAAAAAD"}, follow_redirects=False)
    assert (
        asked.status_code == 200 and "TP1-C-AAAAAAD" in asked.text and 'action="/tripeaks/deal"' in asked.text
    )
    assert game_id in tripeaks_client.get("/tripeaks").text
    csrf = asked.text.split('name="csrf" value="')[1].split('"')[0]
    forged = tripeaks_client.post("/tripeaks/deal", data={"code": "TP1-C-AAAAAAD"}, follow_redirects=False)
    assert forged.status_code == 403 and forged.json()["code"] == "cross_site"
    dealt = tripeaks_client.post(
        "/tripeaks/deal", data={"code": "TP1-C-AAAAAAD", "csrf": csrf}, follow_redirects=False
    )
    assert dealt.status_code == 303 and dealt.headers["location"] == "/tripeaks"
    assert game_id not in tripeaks_client.get("/tripeaks").text
    numbered = tripeaks_client.get(
        "/tripeaks", params={"number": "42", "rules": "easy"}, follow_redirects=False
    )
    assert numbered.status_code == 200 and "#42" in numbered.text
    for odd in ("²", "9" * 5000, "-1", "0x10"):
        refused = tripeaks_client.get("/tripeaks", params={"number": odd}, headers={"Accept-Language": "en"})
        assert refused.status_code == 200 and "Numbered games run from 1 to 50,000" in refused.text
    wrong = tripeaks_client.get("/tripeaks", params={"code": "nonsense"}, headers={"Accept-Language": "hu"})
    assert wrong.status_code == 200 and "Ez nem játszmakód" in wrong.text


def script_data(html: str) -> dict[str, Any]:
    return page_data(html, "tripeaks-data")


def test_a_visitor_gets_the_page_and_its_script_deals_the_first_game(real_store: Any) -> None:
    """A page view makes nobody: the script deals the first game (the deal the link named)."""
    app = create_app(real_store, games=Registry([TriPeaksDefinition()]), routers=[])
    players = len(real_store.all_players())
    with TestClient(app) as visitor:
        plain = script_data(visitor.get("/tripeaks").text)
        assert plain["game"] is None and plain["firstDeal"] == {}
        linked = visitor.get("/tripeaks", params={"number": "42", "rules": "classic"}, follow_redirects=False)
        assert linked.status_code == 200 and "parlour_token" not in linked.cookies
        first_deal = script_data(linked.text)["firstDeal"]
        assert first_deal == {"number": 42, "rules": "classic"}
        bad = visitor.get("/tripeaks", params={"code": "nonsense"})
        assert script_data(bad.text)["firstDeal"] == {} and "not a deal code" in bad.text
        assert len(real_store.all_players()) == players
        made = visitor.post("/api/games/tripeaks", json=first_deal)
        assert made.status_code == 201 and len(real_store.all_players()) == players + 1
        assert script_data(visitor.get("/tripeaks").text)["game"] == made.json()["game"]


def test_every_view_comes_with_its_spoken_description(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}?lang=hu") as socket:
        table = Table(socket)
        assert table.state["description"].startswith("Húzópakli: 23 lap; dobópakli: treff dáma. Csúcslapok:")
        socket.send_json({"type": "action", "action": {"move": "KC"}})
        assert "dobópakli: treff király" in socket.receive_json()["description"]


def test_error_help_preference_is_saved(tripeaks_client: TestClient, real_store: Any) -> None:
    assert tripeaks_client.post("/api/preferences", json={"error_help": False}).status_code == 200
    player = real_store.player_by_token(tripeaks_client.cookies["parlour_token"])
    assert real_store.preferences(player.id)["error_help"] is False
    assert '"error_help": false' in tripeaks_client.get("/tripeaks").text
    bad: object
    for bad in ({"error_help": "no"}, {"volume": 3}, [], {}, {"theme": "neon"}, {"screen_reader": "on"}):
        assert tripeaks_client.post("/api/preferences", json=bad).status_code == 400
    assert real_store.preferences(player.id)["theme"] == "auto"
    # The screen-reader mode and the look, from a game's page: kept, and on <html> from the next page.
    looks = {"screen_reader": True, "theme": "dark", "deck": "four_colour", "card_size": "large"}
    saved = tripeaks_client.post("/api/preferences", json=looks)
    assert saved.status_code == 200 and looks.items() <= saved.json().items()
    page = tripeaks_client.get("/tripeaks").text
    assert 'data-theme="dark" data-look="dark"' in page and 'data-reader="on"' in page


def test_a_numbered_games_verdict_comes_in_words_with_the_right_plural(tripeaks_client: TestClient) -> None:
    from parlour.tripeaks.rules import EASY
    from parlour.tripeaks.solver import numbered_result

    won = next(n for n in range(1, 200) if (r := numbered_result(EASY, n)) is not None and r.winnable)
    lost = next(n for n in range(1, 2000) if (r := numbered_result(EASY, n)) is not None and not r.winnable)
    moves = numbered_result(EASY, won).moves  # type: ignore[union-attr]
    for number, lang, expected in (
        (won, "en", f"Winnable in {moves} moves"),
        (won, "fr", f"Gagnable en {moves} coups"),
        (lost, "en", "This game cannot be won"),
    ):
        game_id = start(tripeaks_client, number=number, rules="easy")
        with tripeaks_client.websocket_connect(f"/ws/{game_id}?lang={lang}") as socket:
            assert Table(socket).state["verdict"] == expected
