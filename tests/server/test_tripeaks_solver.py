"""With the solver installed: "winnable in N moves" for numbered games, fair hints, a numbered win."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

solver = pytest.importorskip("parlour.tripeaks.solver")

from parlour.tripeaks import EASY, DealCode, Game  # noqa: E402


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
        hint = socket.receive_json()
        assert hint["type"] == "hint" and hint["ref"] == 9 and hint["v"] == 0
        legal = Game.from_code("TP1-E-AAAAAAB").legal_actions()
        assert hint["move"] in legal and 0 <= hint["chance"] <= 1
        if hint["move"] != "draw":
            assert state["view"]["tableau"][hint["position"]]["card"] == hint["move"]
        assert hello(socket)["view"] == state["view"]


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
