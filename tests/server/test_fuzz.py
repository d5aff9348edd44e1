"""Fuzzing the HTTP endpoints and the game socket (Hypothesis, in process, bounded): whatever arrives,
0 server errors, 0 tracebacks, and 0 state changes that the game's record does not explain.

Counts are printed (``-s``) so that a run says how much it tried.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import new_store
from parlour.server.app import create_app
from parlour.server.edge.limits import RateLimits
from parlour.thirteen import Match
from parlour.tripeaks import Game

UNLIMITED = RateLimits({"new_player": "100000/minute", "new_game": "100000/minute", "hint": "100000/minute"})
COUNTS = {"requests": 0, "frames": 0}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
cards = st.sampled_from(["3S", "KC", "10H", "TD", "2H", "AS", "joker", "🂡", "5X", ""])
actions = st.one_of(
    st.fixed_dictionaries(
        {"move": st.one_of(cards, st.sampled_from(["draw", "undo", "DRAW"]), st.text(max_size=8))}
    ),
    st.fixed_dictionaries({"position": st.one_of(st.integers(-3, 30), json_values)}),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["select", "play", "pass", "continue", "jump"]),
            "cards": st.lists(cards, max_size=5),
        }
    ),
    st.dictionaries(st.text(max_size=8), json_values, max_size=3),
)
frames = st.one_of(
    st.builds(lambda a, r: {"type": "action", "action": a, "ref": r}, actions, json_values),
    st.builds(
        lambda t, r: {"type": t, "ref": r},
        st.sampled_from(["ping", "legal", "hint", "hello", "bye"]),
        json_values,
    ),
    st.builds(lambda v: {"type": "hello", "v": v}, json_values),
    json_values,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = new_store(Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db")
    app = create_app(store, limits=UNLIMITED)
    with TestClient(app, raise_server_exceptions=False) as made:
        made.get("/")
        yield made
    print(f"\nfuzz: {COUNTS['requests']} HTTP requests, {COUNTS['frames']} socket frames, 0 server errors")


ENDPOINTS = [
    ("POST", "/api/games/tripeaks"),
    ("POST", "/api/games/thirteen"),
    ("POST", "/api/games/nothing"),
    ("POST", "/api/thirteen/settings"),
    ("POST", "/api/preferences"),
    ("GET", "/api/stats"),
    ("GET", "/api/numbered/easy/7"),
    ("GET", "/tripeaks"),
    ("GET", "/thirteen"),
    ("GET", "/tripeaks/numbered"),
    ("POST", "/tripeaks/numbered/play"),
    ("POST", "/tripeaks/deal"),
    ("POST", "/player/name"),
    ("POST", "/player/preferences"),
    ("GET", "/rules/tripeaks"),
    ("GET", "/language/hu"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=json_values,
    query=st.dictionaries(
        st.sampled_from(["code", "number", "rules", "page", "game", "lang", "next"]), st.text(max_size=12)
    ),
    as_form=st.booleans(),
)
def test_http_endpoints_never_fail(
    client: TestClient, endpoint: tuple[str, str], body: Any, query: dict[str, str], as_form: bool
) -> None:
    method, path = endpoint
    if method == "GET":
        response = client.get(path, params=query, follow_redirects=False)
    elif as_form and isinstance(body, dict):
        fields = {str(k): json.dumps(v) for k, v in body.items()}
        response = client.post(path, data=fields, params=query, follow_redirects=False)
    else:
        response = client.post(path, json=body, params=query, follow_redirects=False)
    COUNTS["requests"] += 1
    assert response.status_code < 500, (method, path, body, response.text[:300])
    assert "Traceback" not in response.text


def _record_view(client: TestClient, game_id: str) -> Any:
    store = client.app.state.parlour.store  # type: ignore[attr-defined]
    player = store.player_by_token(client.cookies["parlour_token"])
    record = store.game_record(game_id, player.id)
    return record


@pytest.mark.parametrize("kind", ["tripeaks", "thirteen"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=st.lists(frames, min_size=1, max_size=25))
def test_the_socket_takes_anything_and_changes_games_only_by_the_rules(
    client: TestClient, kind: str, sequence: list[Any]
) -> None:
    options = {"code": "TP1-E-AAAAAAB"} if kind == "tripeaks" else {"code": "TH1-AAAAAAC", "speed": "instant"}
    made = client.post(f"/api/games/{kind}", json=options)
    assert made.status_code == 201, made.text
    game_id = made.json()["game"]
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        state = socket.receive_json()
        version = state["v"]
        for frame in sequence:
            socket.send_text(json.dumps(frame))
            COUNTS["frames"] += 1
            socket.send_json({"type": "ping", "ref": "fence"})  # every reply to the frame comes before this
            while True:
                reply = socket.receive_json()
                assert reply["type"] in ("state", "event", "ack", "error", "hint", "legal", "pong"), reply
                if reply["type"] == "error":
                    assert set(reply) >= {"code", "message"} and "Traceback" not in reply["message"]
                if reply["type"] in ("state", "event"):
                    version = reply["v"]
                if reply.get("ref") == "fence" and reply["type"] == "pong":
                    assert reply["v"] == version
                    break
    # Whatever was accepted is in the record, and the record replays to the game in memory. Both are
    # read under the live game's lock: a computer player may still be moving (its move is in memory
    # while its record is being written), and the lock is where memory and record agree.
    live = client.app.state.parlour.live.get(game_id)  # type: ignore[attr-defined]

    async def record_and_view() -> tuple[Any, Any]:
        async with live.lock:
            view = live.game.game.view() if kind == "tripeaks" else live.game.match.view(0)
            return _record_view(client, game_id), view

    assert client.portal is not None
    record, view = client.portal.call(record_and_view)
    if kind == "tripeaks":
        replayed = Game.from_code(record.code)
        for move in record.moves:
            replayed.apply(move)
        assert view == replayed.view()
    else:
        replayed_match = Match.replay(record.code, record.moves)
        assert view == replayed_match.view(0)
