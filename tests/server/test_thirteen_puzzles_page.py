"""Thirteen puzzles on the web (issue 53): the platform's puzzle pages with Thirteen's board: every hand
shown, a play judged and rated once, a play the rules refuse changes nothing, the day's puzzle."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen.game import Match
from parlour.thirteen.move import Move


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, games=default_registry())) as test_client:
        yield test_client


def shown(client: TestClient, path: str) -> dict[str, Any]:
    page = client.get(path)
    assert page.status_code == 200, page.text
    found = re.search(r'<script type="application/json" id="puzzle-data">(.*?)</script>', page.text, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_thirteen_puzzle_is_shown_judged_and_rated(client: TestClient, store: Store) -> None:
    data = shown(client, "/thirteen/puzzles")
    puzzle = store.puzzle("thirteen", data["puzzle"])
    state = Match.replay(puzzle.code, puzzle.moves).round
    seats = data["board"]["seats"]
    assert seats[0]["seat"] == state.turn and len(seats) == 4
    assert sorted(
        Move.parse(" ".join(seat["cards"])).mask if seat["cards"] else 0 for seat in seats
    ) == sorted(state.hands)
    refused = client.post(f"/api/puzzles/thirteen/{data['puzzle']}/answer", json={"move": "3S 3S 9H"})
    assert refused.status_code == 400 and refused.json()["code"] == "illegal_move"
    assert "parlour_token" not in client.cookies
    answer = client.post(
        f"/api/puzzles/thirteen/{data['puzzle']}/answer", json={"move": puzzle.answer.lower()}
    )
    body = answer.json()
    assert body["solved"] and body["rated"] and body["code"] == puzzle.code
    assert body["steps"][0].endswith(body["answer_words"]) and len(body["positions"]) == len(puzzle.line)
    assert body["positions"][-1]["seats"][0]["cards"] == []  # the line ends with the player out
    daily = shown(client, "/thirteen/puzzles/daily")
    assert daily["puzzle"] == shown(client, "/thirteen/puzzles/daily")["puzzle"]
    assert client.get("/nosuchgame/puzzles").status_code == 404  # no such game, no puzzles
