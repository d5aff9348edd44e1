"""With the solver installed: "winnable in N moves" for numbered games, fair hints, a numbered win."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

solver = pytest.importorskip("parlour.tripeaks.solver")

from parlour.tripeaks import EASY, DealCode, Game  # noqa: E402
from parlour.tripeaks.solver.players import greedy_move  # noqa: E402


def start(client: TestClient, **options: Any) -> str:
    response = client.post("/api/games/tripeaks", json=options)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game"]
    return game_id


def hello(socket: Any) -> dict[str, Any]:
    socket.send_json({"type": "hello", "v": None})
    state: dict[str, Any] = socket.receive_json()
    return state


def test_numbered_games_say_whether_they_can_be_won(tripeaks_client: TestClient) -> None:
    game_id = start(tripeaks_client, number=123, rules="easy")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        view = hello(socket)["view"]
    census = solver.numbered_result("easy", 123)
    assert view["winnable"] == {"winnable": census.winnable, "moves": census.moves}
    pasted = start(tripeaks_client, code="TP1-E-AAAAAET")  # deal 123 under Easy: that numbered game
    with tripeaks_client.websocket_connect(f"/ws/{pasted}") as socket:
        view = hello(socket)["view"]
        assert view["numbered"] == 123 and view["winnable"] == {
            "winnable": census.winnable,
            "moves": census.moves,
        }
    other = start(tripeaks_client, code="TP1-E-AAAAAAB-J")  # variants: no numbered game
    with tripeaks_client.websocket_connect(f"/ws/{other}") as socket:
        assert hello(socket)["view"]["winnable"] is None


def test_a_hint_is_a_legal_move_and_changes_nothing(tripeaks_client: TestClient) -> None:
    if not solver.compiled_available():
        pytest.skip("hints are offered with the compiled solver core only")
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        state = hello(socket)
        socket.send_json({"type": "hint", "ref": 9})
        answer = socket.receive_json()
        assert answer["type"] == "hint" and answer["ref"] == 9 and answer["v"] == 0
        hint = answer["hint"]
        legal = Game.from_code("TP1-E-AAAAAAB").legal_actions()
        assert hint["move"] in legal and 0 <= hint["chance"] <= 1
        if hint["move"] != "draw":
            assert state["view"]["tableau"][hint["position"]]["card"] == hint["move"]
        assert hello(socket)["view"] == state["view"]


def test_a_hint_has_the_strength_asked_for_and_a_bad_strength_changes_nothing(
    tripeaks_client: TestClient,
) -> None:
    if not solver.compiled_available():
        pytest.skip("hints are offered with the compiled solver core only")
    game_id = start(tripeaks_client, code="TP1-E-AAAAAAB")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        state = hello(socket)
        socket.send_json({"type": "hint", "ref": 1, "strength": "greedy"})
        simple = socket.receive_json()["hint"]
        assert simple["strength"] == "greedy" and simple["move"] == greedy_move(
            Game.from_code("TP1-E-AAAAAAB")
        )
        socket.send_json({"type": "hint", "ref": 2, "strength": "quick"})
        quick = socket.receive_json()["hint"]
        assert quick["strength"] == "quick" and quick["high"] - quick["low"] > 0
        socket.send_json({"type": "hint", "ref": 3})
        assert socket.receive_json()["hint"]["strength"] == "fair"
        for bad in ("expert", 7, "", ["fair"], {"x": 1}):
            socket.send_json({"type": "hint", "ref": 4, "strength": bad})
            refused = socket.receive_json()
            assert refused["type"] == "error" and refused["code"] == "invalid_input" and refused["ref"] == 4
            assert "hint strength" in refused["detail"]
        assert hello(socket)["view"] == state["view"]


def test_the_hint_strength_is_a_saved_preference(tripeaks_client: TestClient) -> None:
    if not solver.compiled_available():
        pytest.skip("hints are offered with the compiled solver core only")
    assert 'value="fair" selected' in tripeaks_client.get("/tripeaks").text
    assert tripeaks_client.post("/api/preferences", json={"hint_strength": "quick"}).status_code == 200
    page = tripeaks_client.get("/tripeaks", headers={"Accept-Language": "hu"}).text
    assert 'value="quick" selected' in page and "Tippek erőssége" in page and "Alapos" in page
    for bad in ({"hint_strength": "expert"}, {"hint_strength": 1}, {"bot_strength": "nobody"}):
        assert tripeaks_client.post("/api/preferences", json=bad).status_code == 400
    assert 'value="quick" selected' in tripeaks_client.get("/tripeaks").text


def test_a_numbered_game_won_by_the_solver_line_reports_its_records(
    tripeaks_client: TestClient,
) -> None:
    number = next(n for n in range(1, 60) if solver.numbered_result("easy", n).winnable)
    line = solver.solve(Game.from_code(DealCode(number, EASY)), EASY).line
    game_id = start(tripeaks_client, number=number, rules="easy")
    with tripeaks_client.websocket_connect(f"/ws/{game_id}") as socket:
        hello(socket)
        for move in line:
            socket.send_json({"type": "action", "action": {"move": move}})
            event = socket.receive_json()
            assert event["type"] == "event", event
            socket.receive_json()
        assert event["view"]["status"] == "won"
        assert event["data"]["outcome"]["numbered"] == number
        assert event["data"]["outcome"]["first_win"] is True
        socket.send_json({"type": "hint"})
        assert socket.receive_json()["code"] == ("game_over" if solver.compiled_available() else "no_hint")
