"""Challenges: a finished game offered to friends by a link holding only its id. A friend plays the
same deal with its code hidden and sees nothing of the challenger's game until their own attempt has
ended; then both results, and each may open the other's review; nobody else sees either."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.server.app import create_app
from parlour.store import Store
from parlour.store.daily import today
from parlour.tripeaks import Game
from parlour.tripeaks.solver.solve import solve

from .test_pages import me

CODE = "TP1-E-BCDEFGH"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def line(count: int) -> list[str]:
    found: list[str] = list(solve(Game.from_code(CODE)).line or [])
    return found[:count]


def finished(store: Store, player_id: int, moves: list[str]) -> str:
    game_id = store.start_game(player_id, "tripeaks", None, CODE, ["human"])
    if moves:
        store.append_moves(game_id, player_id, 0, moves)
    store.finish_game(game_id, player_id)
    return game_id


def friend_of(client: TestClient, store: Store, name: str) -> TestClient:
    friend = TestClient(client.app)
    friend.cookies.set("parlour_token", store.create_player(name).token)
    return friend


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_a_friend_sees_the_challengers_result_only_after_their_own_attempt(
    client: TestClient, store: Store
) -> None:
    ada = me(client, store)
    offered = finished(store, ada, line(10))
    made = client.post(f"/api/games/{offered}/challenge")
    assert made.status_code == 201
    url = made.json()["url"]
    assert client.post(f"/api/games/{offered}/challenge").json()["url"] == url  # one challenge a game
    assert CODE not in url and CODE.split("-")[-1] not in url
    mine = client.get(url)
    assert mine.status_code == 200 and url in mine.text and f"/tripeaks/review/{offered}" in mine.text

    bea = friend_of(client, store, "Bea")
    invited = bea.get(url)
    assert invited.status_code == 200 and "Accept the challenge" in invited.text
    assert "a card you have seen stays seen" in invited.text  # the attempt is ranked: undo cannot peek
    assert f"/tripeaks/review/{offered}" not in invited.text and CODE not in invited.text
    assert "Cards left" not in invited.text and "Won, score" not in invited.text  # no result of Ada's yet
    assert bea.get(f"/api/games/{offered}/review").json()["code"] == "no_such_game"
    started = bea.post(f"{url}/play", data={"csrf": csrf_of(invited.text)}, follow_redirects=False)
    assert started.status_code == 303 and started.headers["location"] == "/tripeaks"
    bea_id = store.player_by_token(bea.cookies["parlour_token"]).player_id  # type: ignore[union-attr]
    [attempt] = store.open_games(bea_id, "tripeaks")
    assert attempt.code == CODE and attempt.secret == {"challenge": url.rsplit("/", 1)[-1]}
    assert CODE not in bea.get("/tripeaks").text and "Go on" not in bea.get(url).text.lower()
    seen: list[Any] = []
    with bea.websocket_connect(f"/ws/{attempt.id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        seen.append(socket.receive_json())
        for ref, move in enumerate(line(4), start=1):
            socket.send_json({"type": "action", "action": {"move": move}, "ref": ref})
            while (message := socket.receive_json())["type"] != "ack":
                seen.append(message)
    assert CODE.split("-")[-1] not in json.dumps(seen)
    assert bea.get(f"/api/games/{offered}/review").json()["code"] == "no_such_game"  # not over yet
    store.finish_game(attempt.id, bea_id)

    answered = bea.get(url)
    assert (
        f"/tripeaks/review/{offered}" in answered.text and f"/tripeaks/review/{attempt.id}" in answered.text
    )
    assert answered.text.count('class="challenge-side') == 2
    assert bea.get(f"/api/games/{offered}/review").status_code == 200  # each may open the other's review
    assert client.get(f"/api/games/{attempt.id}/review").status_code == 200
    assert f"/tripeaks/review/{attempt.id}" in client.get(url).text
    eve = friend_of(client, store, "Eve")
    assert eve.get(f"/api/games/{offered}/review").json()["code"] == "no_such_game"
    assert eve.get(f"/api/games/{attempt.id}/review").json()["code"] == "no_such_game"
    assert f"/tripeaks/review/{offered}" not in eve.get(url).text
    [answer] = store.challenge_answers(url.rsplit("/", 1)[-1])
    assert answer.game_id == attempt.id and answer.result["moves"] == 4


def test_only_a_finished_game_of_ones_own_is_offered(client: TestClient, store: Store) -> None:
    ada = me(client, store)
    playing = store.start_game(ada, "tripeaks", None, CODE, ["human"])
    store.append_moves(playing, ada, 0, line(2))
    assert client.post(f"/api/games/{playing}/challenge").json()["code"] == "game_open"
    store.finish_game(playing, ada)
    empty = finished(store, ada, [])
    assert client.post(f"/api/games/{empty}/challenge").json()["code"] == "not_challengeable"
    theirs = finished(store, store.create_player("Eve").player_id, line(3))
    for game_id in (theirs, "no-such-game", "x" * 300):
        assert client.post(f"/api/games/{game_id}/challenge").json()["code"] == "no_such_game"
    assert TestClient(client.app).post(f"/api/games/{playing}/challenge").status_code == 404
    deal = store.daily_deal("tripeaks", "easy", today())
    from parlour.tripeaks.definition import TriPeaksDefinition

    new = TriPeaksDefinition().ranked(deal.code, {"daily": today().isoformat()})
    assert new.spec is not None
    daily = store.record_game(ada, TriPeaksDefinition(), new.spec)
    store.append_moves(daily, ada, 0, ["draw"])
    store.finish_game(daily, ada)
    # Today's daily deal stays unknown to those who have not played it: no challenge before tomorrow.
    assert client.post(f"/api/games/{daily}/challenge").json()["code"] == "not_challengeable"
    for bad in ("/tripeaks/challenge/nope", "/thirteen/challenge/nope"):
        assert client.get(bad).status_code == 404


def test_the_challenger_does_not_answer_their_own_challenge(client: TestClient, store: Store) -> None:
    ada = me(client, store)
    offered = finished(store, ada, line(5))
    url = client.post(f"/api/games/{offered}/challenge").json()["url"]
    page = client.get(url)
    assert "Accept the challenge" not in page.text
    form = csrf_of(client.get("/tripeaks/numbered").text)
    back = client.post(f"{url}/play", data={"csrf": form}, follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == url
    assert store.open_games(ada, "tripeaks") == []
