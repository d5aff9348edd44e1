"""TriPeaks puzzles on the web (issue 53): the page shows what a player of the deal would see (no code,
no hidden card), the first answer is judged and rated, a card that does not fit changes nothing, the
day's puzzle is everybody's, and a streak counts the puzzles solved in a row."""

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
from parlour.tripeaks.game import Game


@pytest.fixture
def app(store: Store) -> Any:
    return create_app(store, games=default_registry())


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def shown(client: TestClient, path: str = "/tripeaks/puzzles") -> tuple[str, dict[str, Any]]:
    page = client.get(path)
    assert page.status_code == 200, page.text
    found = re.search(r'<script type="application/json" id="puzzle-data">(.*?)</script>', page.text, re.S)
    assert found is not None
    return page.text, json.loads(found.group(1))


def wrong_move(store: Store, puzzle_id: str) -> str:
    puzzle = store.puzzle("tripeaks", puzzle_id)
    game = Game.from_code(puzzle.code)
    for move in puzzle.moves:
        game.apply(move)
    return next(move for move in game.legal_actions() if move != puzzle.answer)


def test_the_page_shows_only_what_a_player_sees(client: TestClient, store: Store) -> None:
    page, data = shown(client)
    puzzle = store.puzzle("tripeaks", data["puzzle"])
    assert puzzle.code not in page and "TP1-" not in page
    game = Game.from_code(puzzle.code)
    for move in puzzle.moves:
        game.apply(move)
    board = data["board"]
    for place, card in enumerate(board["places"]):
        if game.removed(place):
            assert card is None
        elif game.face_up(place):
            assert card == str(game.card_at(place))
        else:
            assert card == "back"  # a face-down card is a back, never its card
    hidden = {str(game.card_at(p)) for p in range(28) if not game.face_up(p) and not game.removed(p)}
    stock = {str(card) for card in game.deal.stock} - {str(card) for card in game.discard}
    assert not (hidden | stock) & set(re.findall(r"\b[2-9TJQKA][CDHS]\b", page))  # one of a kind
    assert board["stock"] == game.stock_count and "parlour_token" not in client.cookies  # a look makes nobody


def test_an_answer_is_judged_rated_once_and_shows_the_win(client: TestClient, store: Store) -> None:
    _, data = shown(client)
    puzzle_id = data["puzzle"]
    puzzle = store.puzzle("tripeaks", puzzle_id)
    refused = client.post(f"/api/puzzles/tripeaks/{puzzle_id}/answer", json={"move": "ZZ"})
    assert refused.status_code == 400 and refused.json()["code"] == "illegal_move"
    assert "parlour_token" not in client.cookies  # nothing kept, nobody made
    answer = client.post(f"/api/puzzles/tripeaks/{puzzle_id}/answer", json={"move": puzzle.answer})
    body = answer.json()
    assert answer.status_code == 200 and body["solved"] and body["rated"]
    assert body["rating"]["after"]["rating"] > body["rating"]["before"]["rating"] == 1500
    assert body["code"] == puzzle.code and len(body["steps"]) == len(puzzle.line) + 1
    assert len(body["positions"]) == len(puzzle.line) + 1 and body["positions"][-1]["places"] == [None] * 28
    again = client.post(
        f"/api/puzzles/tripeaks/{puzzle_id}/answer", json={"move": wrong_move(store, puzzle_id)}
    )
    assert again.json()["solved"] is False and again.json()["rated"] is False
    _, following = shown(client)
    assert following["puzzle"] != puzzle_id  # the next puzzle is one not tried
    assert client.get(f"/tripeaks/puzzles/{puzzle_id}").status_code == 200
    assert client.get("/tripeaks/puzzles/0000000000000000").status_code == 404
    assert client.post("/api/puzzles/tripeaks/nope/answer", json={"move": "draw"}).status_code == 404
    assert (
        client.post(
            f"/api/puzzles/tripeaks/{puzzle_id}/answer", json={"move": "draw", "mode": "x"}
        ).status_code
        == 400
    )


def test_the_days_puzzle_is_everybodys(app: Any) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        assert (
            shown(first, "/tripeaks/puzzles/daily")[1]["puzzle"]
            == shown(second, "/tripeaks/puzzles/daily")[1]["puzzle"]
        )


def test_a_streak_counts_puzzles_solved_in_a_row(client: TestClient, store: Store) -> None:
    for solved in range(3):
        _, data = shown(client, "/tripeaks/puzzles/streak")
        assert data["streak"] == solved
        answer = store.puzzle("tripeaks", data["puzzle"]).answer
        body = client.post(
            f"/api/puzzles/tripeaks/{data['puzzle']}/answer", json={"move": answer, "mode": "streak"}
        ).json()
        assert body["solved"] and not body["rated"] and body["streak"] == solved + 1
    _, data = shown(client, "/tripeaks/puzzles/streak")
    missed = client.post(
        f"/api/puzzles/tripeaks/{data['puzzle']}/answer",
        json={"move": wrong_move(store, data["puzzle"]), "mode": "streak"},
    ).json()
    assert not missed["solved"] and missed["streak"] == 0 and missed["best_streak"] == 3
    assert shown(client, "/tripeaks/puzzles/streak")[1]["streak"] == 0


def test_past_daily_deals_become_puzzles_once(app: Any, store: Store) -> None:
    from datetime import UTC, datetime, timedelta

    from parlour.server.pages import puzzle_pages

    with TestClient(app) as client:
        parlour = app.state.parlour
        assert client.portal is not None
        added = client.portal.call(puzzle_pages.harvest, parlour)
        assert added >= 1 and client.portal.call(puzzle_pages.harvest, parlour) == 0  # once a process
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    from sqlalchemy import select

    from parlour.store.models import PuzzleRow

    with store.engine.connect() as connection:
        found = connection.execute(select(PuzzleRow.code, PuzzleRow.source)).all()
    assert any(source == f"daily {yesterday}" for _, source in found)
    today = store.daily_deal("tripeaks", "easy", datetime.now(UTC).date()).code
    assert today not in {code for code, _ in found}  # today's deal is still ranked: never a puzzle
