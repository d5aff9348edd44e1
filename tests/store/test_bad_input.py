"""Every bad input gets a clear error that changes nothing: never a 500, never a traceback, on SQLite
and PostgreSQL alike. Also: another site's requests are refused, and a missing database is one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.cli import main
from parlour.server.app import create_app
from parlour.store import Store

from .conftest import BACKENDS, FreshDatabases

JSON = {"content-type": "application/json"}
NESTED = "[" * 100_000 + "]" * 100_000


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    databases = FreshDatabases(tmp_path)
    store = Store(databases.url(request.param))
    with TestClient(create_app(store)) as made:
        made.get("/")
        yield made
    store.close()
    databases.drop()


def game(client: TestClient, kind: str = "tripeaks") -> str:
    options = {"code": "TP1-E-AAAAAAB"} if kind == "tripeaks" else {"speed": "instant"}
    made = client.post(f"/api/games/{kind}", json=options)
    assert made.status_code == 201, made.text
    game_id: str = made.json()["game"]
    return game_id


@pytest.mark.parametrize(
    "body",
    [{"speed": []}, {"speed": {}}, {"strength": ["heuristic"]}, {"speed": None}, {"speed": 1.5}, {"": 1}],
)
def test_odd_settings_are_refused_clearly(client: TestClient, body: Any) -> None:
    for path in ("/api/thirteen/settings", "/api/games/thirteen"):
        refused = client.post(path, json=body)
        assert refused.status_code == 400, (path, refused.text)
        assert refused.json()["code"] == "bad_option"


@pytest.mark.parametrize("path", ["/api/games/tripeaks", "/api/thirteen/settings", "/api/preferences"])
def test_deep_and_oversized_bodies_are_refused_without_being_echoed(client: TestClient, path: str) -> None:
    deep = client.post(path, content=("[" * 5000 + "]" * 5000).encode(), headers=JSON)
    assert deep.status_code == 400 and "[[[[" not in deep.text
    huge = client.post(path, content=json.dumps({"code": "x" * 200_000}).encode(), headers=JSON)
    assert huge.status_code == 413 and huge.json()["code"] == "too_large" and "xxxx" not in huge.text
    plain = client.post(path, content=b'{"error_help": false}', headers={"content-type": "text/plain"})
    assert plain.status_code == 415


@pytest.mark.parametrize("game_id", ["abc%00def", "a" * 5000, "..%2F..%2Fetc", "' or 1=1 --", "%C3%A9"])
def test_impossible_game_ids_are_just_unknown_games(client: TestClient, game_id: str) -> None:
    # Sent percent-encoded: the server sees the NUL byte, the slashes, the é.
    assert client.get(f"/api/games/{game_id}/outcome").status_code == 404
    assert client.post(f"/api/games/{game_id}/leave").status_code == 404
    if "%2F" in game_id:  # not a socket path at all: the router closes it (no handler runs)
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{game_id}"):
            pass
        return
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        assert socket.receive_json() == {"type": "refused", "code": "no_such_game"}


def test_odd_socket_frames_get_errors_and_change_nothing(client: TestClient) -> None:
    game_id = game(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["v"] == 0
        socket.send_bytes(b"\x00\x01binary")
        assert socket.receive_json()["code"] == "bad_message"
        socket.send_text('{"type": "ping", "ref": "\\ud800"}')  # a lone surrogate
        reply = socket.receive_json()
        assert reply["type"] == "error" and reply["ref"] is None
        socket.send_text('{"type": "ping", "ref": NaN}')
        assert socket.receive_json()["code"] == "bad_json"
        socket.send_text('{"type": "action", "action": {"move": "\\ud800"}, "ref": 3}')
        odd = socket.receive_json()
        assert odd["type"] == "error" and odd["ref"] == 3
        socket.send_text(NESTED[:2000] + NESTED[-2000:])
        assert socket.receive_json()["code"] in ("bad_json", "too_large")
        socket.send_json({"type": "ping", "ref": 2**60})
        assert socket.receive_json()["code"] == "bad_message"
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["v"] == 0  # nothing changed


def test_another_sites_requests_are_refused(client: TestClient) -> None:
    game_id = game(client)
    evil = {"Origin": "https://evil.example"}
    made = client.post("/api/games/tripeaks", json={}, headers=evil)
    assert made.status_code == 403 and made.json()["code"] == "cross_site"
    sneaky = client.post(
        "/api/preferences", json={"error_help": False}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert sneaky.status_code == 403
    assert client.post(f"/api/games/{game_id}/leave", headers=evil).status_code == 403
    host = {"Origin": "http://testserver"}
    assert client.post("/api/preferences", json={"error_help": False}, headers=host).status_code == 200
    with client.websocket_connect(f"/ws/{game_id}", headers=evil) as socket:
        assert socket.receive_json() == {"type": "refused", "code": "cross_site"}
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    with client.websocket_connect(f"/ws/{game_id}", headers=host) as socket:
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["type"] == "state"
    # The same host and port over another scheme is another origin (an https page on this http server).
    other_scheme = {"Origin": "https://testserver"}
    assert (
        client.post("/api/preferences", json={"error_help": False}, headers=other_scheme).status_code == 403
    )
    with client.websocket_connect(f"/ws/{game_id}", headers=other_scheme) as socket:
        assert socket.receive_json() == {"type": "refused", "code": "cross_site"}
    secure = TestClient(client.app, base_url="https://testserver")
    secure.cookies.update(client.cookies)
    https_page = {"Origin": "https://testserver"}
    assert secure.post("/api/preferences", json={"error_help": False}, headers=https_page).status_code == 200
    assert secure.post("/api/preferences", json={"error_help": False}, headers=host).status_code == 403
    with secure.websocket_connect(f"wss://testserver/ws/{game_id}", headers=https_page) as socket:
        socket.send_json({"type": "hello", "v": None})
        assert socket.receive_json()["type"] == "state"


def test_pages_send_security_headers(client: TestClient) -> None:
    for path in ("/", "/tripeaks", "/thirteen", "/stats", "/player"):
        page = client.get(path)
        assert page.status_code == 200
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["x-frame-options"] == "DENY"


def test_a_database_that_cannot_be_reached_is_one_clear_line() -> None:
    runner = CliRunner()
    url = "postgresql://nobody@127.0.0.1:1/nothing"
    for command in (["stats", "--database-url", url], ["serve", "--port", "0", "--database-url", url]):
        result = runner.invoke(main, command)
        assert result.exit_code == 1, result.output
        assert "the database is not available" in result.output and "Traceback" not in result.output
        assert "Parlour is running" not in result.output
    bad = runner.invoke(main, ["stats", "--database-url", "nonsense://"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output
    for place in ("sqlite:////proc/parlour/nowhere.db", "sqlite:////dev/null/parlour.db"):  # no directory
        unwritable = runner.invoke(main, ["serve", "--port", "0", "--database-url", place])
        assert unwritable.exit_code == 1 and "not available" in unwritable.output, unwritable.output
        assert "Traceback" not in unwritable.output
    # One line each, exit status 1, from every command that opens the database.
    assert len(runner.invoke(main, ["stats", "--database-url", url]).output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("notaurl", "is not a database URL"),
        ("mysql://someone@127.0.0.1/db", "SQLite or PostgreSQL"),
        (
            "sqlite:////tmp/parlour-no-such-folder/deeper/x.db",
            "the folder /tmp/parlour-no-such-folder/deeper",
        ),
    ],
)
@pytest.mark.parametrize(
    "command", [["stats"], ["serve", "--port", "0"], ["db", "upgrade"], ["db", "where"], ["thirteen", "tui"]]
)
def test_a_bad_database_url_is_one_line_everywhere(command: list[str], url: str, says: str) -> None:
    """A malformed URL, an unsupported database, an SQLite file in a folder that does not exist: one
    line, exit status 1, and no folder made (only the default data folder is ever created)."""
    if command == ["db", "where"] and url.startswith("sqlite"):
        return  # where only prints the URL it would use
    result = CliRunner().invoke(main, [*command, "--database-url", url])
    assert result.exit_code == 1, result.output
    assert says in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert not Path("/tmp/parlour-no-such-folder").exists()
