"""The game-agnostic server: pages, languages, tokens, game creation and the live-game WebSocket."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.games.registry import Registry
from parlour.server.app import create_app


def new_game(client: TestClient, **options: Any) -> str:
    response = client.post("/api/games/tally", json=options)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game"]
    return game_id


def test_home_page_makes_no_player_and_speaks_the_browser_language(client: TestClient, store: Any) -> None:
    page = client.get("/", headers={"Accept-Language": "hu-HU,hu;q=0.9"})
    assert page.status_code == 200
    assert '<html lang="hu"' in page.text and "Kártyajátékok" in page.text
    assert "parlour_token" not in page.cookies  # a page view makes nobody (decision 0042)
    assert page.headers["content-language"] == "hu"
    made = client.post("/api/player")
    assert made.status_code == 201 and store.player_by_token(made.cookies["parlour_token"]) is not None


def test_language_switch_is_remembered_and_redirects_only_on_site(client: TestClient) -> None:
    switched = client.get("/language/hi", params={"next": "/"}, follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/"
    page = client.get("/", headers={"Accept-Language": "fr"})
    assert '<html lang="hi"' in page.text and "ताश के खेल" in page.text
    outside = client.get("/language/fr", params={"next": "//evil.example/"}, follow_redirects=False)
    assert outside.headers["location"] == "/"
    assert client.get("/language/de").status_code == 404


def test_a_language_link_changes_only_this_browsers_language(client: TestClient, store: Any) -> None:
    client.get("/language/fr", follow_redirects=False)
    assert "parlour_token" not in client.cookies  # nor does it make a player
    client.post("/api/player")
    player = store.player_by_token(client.cookies["parlour_token"])
    assert client.cookies["parlour_lang"] == "fr"
    assert store.preferences(player.id)["lang"] is None  # a link saves nothing (a form does)


def test_every_page_has_the_language_switcher(client: TestClient) -> None:
    page = client.get("/")
    for code, name in (("en", "English"), ("hi", "हिन्दी"), ("hu", "Magyar"), ("fr", "Français")):
        assert f'href="/language/{code}?next=/"' in page.text and name in page.text


def test_static_files_are_served(client: TestClient) -> None:
    assert client.get("/static/css/parlour.css").status_code == 200
    assert client.get("/static/js/live.js").headers["content-type"].startswith("text/javascript")


def test_creating_a_game_checks_kind_and_options(client: TestClient) -> None:
    assert client.post("/api/games/chess", json={}).status_code == 404
    bad = client.post("/api/games/tally", content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_json"
    refused = client.post("/api/games/tally", json={"start": 5})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_input"


def test_hello_gets_the_state_then_actions_get_versioned_events(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json() == {
            "type": "state",
            "v": 0,
            "game": game_id,
            "view": {"total": 0, "secret": 0},
        }
        socket.send_json({"type": "action", "action": {"add": 2}, "ref": 7})
        event = socket.receive_json()
        assert event == {
            "type": "event",
            "v": 1,
            "name": "add",
            "data": {"amount": 2},
            "view": {"total": 2, "secret": 0},
        }
        assert socket.receive_json() == {"type": "ack", "ref": 7, "v": 1}
        socket.send_json({"type": "ping", "ref": 8})
        assert socket.receive_json() == {"type": "pong", "ref": 8, "v": 1}


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{oops", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": 3}', "bad_message"),
        ('{"type": "dance"}', "bad_message"),
        ('{"type": "action", "action": "add"}', "bad_message"),
        ('{"type": "action", "action": {"add": "two"}}', "invalid_input"),
        ('{"type": "action", "action": {"add": 9}}', "too_much"),
        ('{"type": "hello", "v": "last"}', "bad_message"),
        ('{"type": "hello", "v": true}', "bad_message"),
        ('{"type": "action", "action": {"add": 1}, "pad": "' + "x" * 5000 + '"}', "too_large"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(client: TestClient, message: str, code: str) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        socket.receive_json()
        socket.send_text(message)
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == code and error["message"]
        assert error["v"] == 0
        socket.send_json({"type": "action", "action": {"add": 1}})
        assert socket.receive_json()["v"] == 1  # the connection stays open and nothing changed


def test_an_action_before_hello_is_refused(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "action", "action": {"add": 1}, "ref": 1})
        assert socket.receive_json()["code"] == "bad_message"


def test_errors_are_explained_in_the_socket_language(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}?lang=hu") as socket:
        socket.send_json({"type": "hello", "v": None})
        socket.receive_json()
        socket.send_text("{oops")
        assert socket.receive_json()["message"] == "Az üzenet nem érvényes JSON."


def test_another_players_token_is_refused(client: TestClient, store: Any) -> None:
    game_id = new_game(client)
    with TestClient(client.app) as stranger:
        stranger.post("/api/player")
        with stranger.websocket_connect(f"/ws/{game_id}") as socket:
            # The same answer as for a game that does not exist: nothing tells which ids are games.
            assert socket.receive_json() == {"type": "refused", "code": "no_such_game"}
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4404
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        assert socket.receive_json()["code"] == "no_such_game"


def test_an_unknown_game_is_refused(client: TestClient) -> None:
    client.post("/api/player")
    with client.websocket_connect("/ws/nosuchgame") as socket:
        assert socket.receive_json() == {"type": "refused", "code": "no_such_game"}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404


def test_reconnect_gets_missed_events_or_a_resync(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        socket.receive_json()
        for _ in range(3):
            socket.send_json({"type": "action", "action": {"add": 1}})
            socket.receive_json()
            socket.receive_json()
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": 1})
        assert [socket.receive_json()["v"] for _ in range(2)] == [2, 3]
        socket.send_json({"type": "hello", "v": 3})
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"  # up to date: nothing replayed
        socket.send_json({"type": "hello", "v": 99})
        resync = socket.receive_json()
        assert resync["type"] == "state" and resync["v"] == 3 and resync["view"]["total"] == 3


def test_a_seat_that_may_not_see_an_event_gets_a_version_stub(client: TestClient) -> None:
    from tally_game import Tally

    from parlour.server.owners.live import _event_message

    game = Tally()
    change = game.act(0, {"peek": True})
    views = {seat: game.view(seat) for seat in game.seats}
    assert _event_message(5, change, 1, views[1]) == {"type": "event", "v": 5, "name": None}
    assert _event_message(5, change, 0, views[0])["data"] == {"secret": 1}


def test_moves_are_recorded_before_the_ack_and_the_game_is_finished(client: TestClient, store: Any) -> None:
    game_id = new_game(client)
    player = store.player_by_token(client.cookies["parlour_token"])
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        socket.receive_json()
        for amount in (3, 3, 3):
            socket.send_json({"type": "action", "action": {"add": amount}})
            socket.receive_json()
            socket.receive_json()
        assert store.game_record(game_id, player.id).moves == ["3", "3", "3"]
        socket.send_json({"type": "action", "action": {"add": 1}})
        socket.receive_json()
        socket.receive_json()
        assert store.game_record(game_id, player.id).status == "finished"
        socket.send_json({"type": "action", "action": {"add": 1}})
        assert socket.receive_json()["code"] == "game_over"


def test_a_new_game_closes_the_previous_one_and_games_survive_a_restart(store: Any) -> None:
    import tally_game

    app = create_app(store, games=Registry([tally_game.DEFINITION]), routers=[])
    with TestClient(app) as first:
        old = new_game(first)
        game_id = new_game(first)
        player = store.player_by_token(first.cookies["parlour_token"])
        assert store.game_record(old, player.id).status == "left"  # closed unfinished, by the store's replay
        with first.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            socket.receive_json()
            socket.send_json({"type": "action", "action": {"add": 2}})
            socket.receive_json()
        token = first.cookies["parlour_token"]
    restarted = create_app(store, games=Registry([tally_game.DEFINITION]), routers=[])
    again = TestClient(restarted, cookies={"parlour_token": token})
    with again, again.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["view"]["total"] == 2


def test_a_game_without_hints_says_so(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hint", "ref": 3})
        assert socket.receive_json()["code"] == "bad_message"  # hello first
        socket.send_json({"type": "hello", "v": None})
        socket.receive_json()
        socket.send_json({"type": "hint", "ref": 4})
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["code"] == "no_hint" and answer["ref"] == 4


def test_a_third_game_plugs_in_with_one_registration(tmp_path: Any) -> None:
    """The tally game is defined in one test module and registered once; the server (its page, the
    socket), the store (records replayed, outcomes), the statistics and the command line's tables know
    it from the registry alone."""
    import tally_game

    from conftest import games_with_tally, new_store
    from parlour.cli.stats import overview_table

    games = games_with_tally()  # the one registration
    store = new_store(tmp_path / "third.db", games)
    with TestClient(create_app(store)) as client:
        page = client.get("/tally")
        assert page.status_code == 200 and "Tally: <b>0</b>" in page.text
        home = client.get("/").text
        assert 'href="/tally"' in home and "Add to ten." in home
        game_id = re.search(r'data-game="([^"]+)"', page.text)[1]  # type: ignore[index]
        player = store.player_by_token(client.cookies["parlour_token"])
        assert player is not None
        with client.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            state = socket.receive_json()
            assert state.get("view") == {"total": 0, "secret": 0}, state
            socket.send_json({"type": "legal", "ref": 7})
            assert socket.receive_json() == {"type": "legal", "ref": 7, "v": 0, "moves": ["1", "2", "3"]}
            socket.send_json({"type": "action", "action": {"add": 4}, "ref": 1})
            refused = socket.receive_json()
            assert refused["code"] == "too_much" and refused["message"] == "Add 1, 2 or 3."
            for amount in (3, 3, 3, 1):
                socket.send_json({"type": "action", "action": {"add": amount}, "ref": amount})
                event, ack = socket.receive_json(), socket.receive_json()
                assert event["name"] == "add" and ack["type"] == "ack"
        record = store.game_record(game_id, player.id)
        assert record.moves == ["3", "3", "3", "1"] and record.status == "finished"
        outcome = client.get(f"/api/games/{game_id}/outcome").json()["outcome"]
        assert outcome["result"]["total"] == 10
        stats = client.get("/api/stats").json()
        assert stats["tally"] == {"played": 1, "completed": 1}
        assert set(stats) == {"tripeaks", "thirteen", "tally"}
    figures = store.statistics(player.id)
    assert figures["tally"] == tally_game.TallyStatistics(1, 1)
    headings = [
        column.header for column in overview_table(store.games, [(store.player(player.id), figures)]).columns
    ]
    assert "Tallies" in headings
    with pytest.raises(ValueError, match="stored move"):  # a forged move is caught by the tally's replay
        from sqlalchemy import text

        second = store.start_game(player.id, "tally", None, "tally", [0, 1])
        with store.engine.begin() as connection:
            connection.execute(
                text("insert into game_moves (game_id, \"index\", move) values (:g, 0, '7')"), {"g": second}
            )
        store.finish_game(second, player.id)
