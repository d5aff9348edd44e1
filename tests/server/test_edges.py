"""The app's edges: a client that hangs up in the middle of its body, requests of the wrong shape, pages
that do not exist, malformed forms and failed statements. Each gets Parlour's ``{code, message}`` (or
a page, for a browser), in the caller's language, and never a traceback or a value in the logs."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from conftest import new_store
from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.store import Store
from parlour.store.errors import StoreUnavailable
from parlour.store.secrets import digest


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Store]]:
    store = new_store(tmp_path / "edges.db")
    with TestClient(create_app(store, games=default_registry())) as client:
        client.post("/api/player")  # a player, with its cookie
        yield client, store


def asgi_post(client: TestClient, path: str, chunks: list[dict[str, Any]], length: int | None) -> list[Any]:
    """Send one POST straight to the app, its body coming as ``chunks`` (ending as the client hangs up);
    return what the app sent back."""
    headers = [(b"content-type", b"application/json"), (b"host", b"testserver")]
    headers.append((b"cookie", f"parlour_token={client.cookies['parlour_token']}".encode()))
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "headers": headers, "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
        "root_path": "", "state": {},
    }  # fmt: skip
    waiting = list(chunks)
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return waiting.pop(0) if waiting else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    assert client.portal is not None
    client.portal.call(client.app, {**scope, "state": dict(client.app_state)}, receive, send)
    return sent


@pytest.mark.parametrize("path", ["/api/games/tripeaks", "/api/tables", "/api/preferences"])
@pytest.mark.parametrize("length", [400, None])  # a declared length, and a chunked body
def test_a_client_that_hangs_up_mid_body_leaves_no_trace(
    served: tuple[TestClient, Store], caplog: pytest.LogCaptureFixture, path: str, length: int | None
) -> None:
    client, store = served
    games_before = len(store.open_games(store.all_players()[0].id, "tripeaks"))
    partial = {"type": "http.request", "body": b'{"rules": "cla', "more_body": True}
    with caplog.at_level(logging.DEBUG):
        sent = asgi_post(client, path, [partial, {"type": "http.disconnect"}], length)
    assert sent and sent[0]["status"] == 400
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING or record.exc_info]
    assert not loud, [record.getMessage() for record in loud]
    assert len(store.open_games(store.all_players()[0].id, "tripeaks")) == games_before


def test_a_wrongly_shaped_address_gets_parlours_answer_in_the_callers_language(
    served: tuple[TestClient, Store],
) -> None:
    client, _ = served
    answer = client.get("/api/numbered/easy/abc", headers={"accept-language": "hu"})
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_input" and body["message"].startswith("Ez a kérés")
    assert "abc" not in answer.text  # what was sent is never echoed
    assert answer.headers["content-type"] == "application/json"


def test_unknown_pages_and_methods_get_parlours_answers(served: tuple[TestClient, Store]) -> None:
    client, store = served
    players = len(store.all_players())
    missing = client.get("/no/such/page?lang=fr")
    assert missing.status_code == 404 and missing.json() == {
        "code": "not_found",
        "message": "Cette page n’existe pas.",
    }
    page = client.get("/no/such/page", headers={"accept": "text/html", "accept-language": "hi"})
    assert page.status_code == 404 and "ऐसा कोई पेज नहीं है।" in page.text and 'lang="hi"' in page.text
    client.cookies.clear()
    assert client.get("/nothing", headers={"accept": "text/html"}).status_code == 404
    assert len(store.all_players()) == players  # a page that does not exist makes no player
    wrong = client.delete("/api/tables")
    assert wrong.status_code == 405 and wrong.json()["code"] == "method_not_allowed"
    static = client.get("/static/js/none.js")
    assert static.status_code == 404 and static.json()["code"] == "not_found"


def api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    """Every API route of the app, through the routers it includes (none of them adds a prefix)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)


def test_no_route_answers_with_the_frameworks_default_body(served: tuple[TestClient, Store]) -> None:
    """Every API route, its path parameters given junk: an answer with Parlour's shape, never 500, never
    FastAPI's ``{"detail": …}``."""
    client, _ = served
    app: Any = client.app
    routes = list(api_routes(app.routes))
    assert len(routes) > 20
    for route in routes:
        path = route.path_format
        for name in route.param_convertors:
            path = path.replace("{" + name + "}", "%00zz")
        for method in sorted((route.methods or set()) - {"HEAD"}):
            answer = client.request(method, path, json={"x": [[[[1]]]]} if method == "POST" else None)
            assert answer.status_code < 500, (method, path, answer.text)
            if answer.headers.get("content-type", "").startswith("application/json"):
                body = answer.json()
                assert "detail" not in body or isinstance(body["detail"], str), (method, path, body)


def test_a_malformed_form_is_refused_quietly(
    served: tuple[TestClient, Store], caplog: pytest.LogCaptureFixture
) -> None:
    client, _ = served
    with caplog.at_level(logging.DEBUG):
        answer = client.post(
            "/player/name?lang=fr",
            content=b"--xyQ\r\n",
            headers={"content-type": "multipart/form-data; boundary=xyz"},
        )
    assert answer.status_code == 400
    assert answer.json() == {"code": "bad_request", "message": "Cette requête n’a pas pu être lue."}
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_a_failed_statement_never_shows_its_values(tmp_path: Path) -> None:
    store = new_store(tmp_path / "values.db")
    made = store.create_player()
    with store.engine.begin() as connection:  # a table the next statement needs is gone
        connection.exec_driver_sql("DROP TABLE player_tokens")
    with pytest.raises(StoreUnavailable) as failed:
        store.player_by_token(made.token)
    assert "[parameters:" not in str(failed.value)
    assert digest(made.token) not in str(failed.value)


@pytest.mark.parametrize(
    ("path", "body", "code", "field"),
    [
        ("/api/preferences", {"sound": "yes"}, "bad_preferences", "sound"),
        ("/api/preferences", {"hint_strength": "oracle"}, "bad_preferences", "hint_strength"),
        ("/api/preferences", {"deck": "tarot"}, "bad_preferences", "deck"),
        ("/api/preferences", {"x" * 80: True}, "bad_preferences", "…"),
        ("/api/preferences", {}, "bad_preferences", "setting"),
        ("/api/tables", {"game": 13}, "bad_option", "game"),
        ("/api/tables", {"settings": [1, 2]}, "bad_option", "settings"),
        ("/api/tables", {"host": "Mallory"}, "bad_option", "host"),
        ("/api/thirteen/settings", {"speed": "warp"}, "bad_option", "speed"),
        ("/api/games/tripeaks", ["rules", "easy"], "bad_json", "body"),
    ],
)
def test_a_body_of_the_wrong_shape_is_told_which_field_and_nothing_changes(
    served: tuple[TestClient, Store], path: str, body: Any, code: str, field: str
) -> None:
    """Every JSON body is read into its model: a field of the wrong shape, one the address does not
    take or none at all is refused with the address's own code, a message in the caller's language and
    a detail naming the field (but never a value sent, nor a long name of the sender's own)."""
    client, store = served
    before = store.preferences(store.all_players()[0].player_id)
    answer = client.post(f"{path}?lang=fr", json=body)
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert refused["code"] == code and refused["message"] and field in refused["detail"], refused
    for sent in ("yes", "oracle", "x" * 80, "warp", "Mallory"):
        assert sent not in refused["detail"]
    assert store.preferences(store.all_players()[0].player_id) == before


def test_a_database_failure_is_logged_with_the_route_not_the_path(
    served: tuple[TestClient, Store], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A path can hold a table's code: the operator's line names the route's template instead."""
    client, store = served

    def failing(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("the database did not answer")

    monkeypatch.setattr(store, "table_by_code", failing)
    logger = logging.getLogger("parlour.server")  # "parlour" may not propagate: listen on it directly
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.ERROR, logger="parlour.server"):
            answer = client.get("/thirteen/t/HJ3TW2")
    finally:
        logger.removeHandler(caplog.handler)
    assert answer.status_code == 503
    # (a record reaches the capture once or twice, as "parlour" propagates or not)
    [line] = {r.getMessage() for r in caplog.records if "database failed" in r.getMessage()}
    assert "HJ3TW2" not in line and "/thirteen/t/{code}" in line


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/games/nosuchgame0000000000/review", 404, "no_such_game"),
        ("GET", "/api/games/nosuchgame0000000000/outcome", 404, "no_such_game"),
        ("POST", "/api/games/nosuchgame0000000000/leave", 404, "no_such_game"),
        ("POST", "/api/games/nosuchgame0000000000/challenge", 404, "no_such_game"),
        ("GET", "/api/daily/tripeaks/easy/2020-01-01", 404, "no_such_daily_deal"),
        ("GET", "/api/numbered/tripeaks/easy/999999", 404, "no_such_numbered_game"),
        ("POST", "/api/games/nosuchkind", 404, "no_such_game_kind"),
    ],
)
def test_every_api_refusal_says_why_in_the_players_language(
    served: tuple[TestClient, Store], method: str, path: str, status: int, code: str
) -> None:
    client, _ = served
    for lang, word in (("en", "no"), ("fr", "")):
        answer = client.request(method, f"{path}?lang={lang}", json={} if method == "POST" else None)
        assert answer.status_code == status and answer.json()["code"] == code, answer.text
        message = answer.json()["message"]
        assert isinstance(message, str) and len(message) > 10 and word in message.lower(), message
    english = client.request(method, f"{path}?lang=en", json={} if method == "POST" else None).json()
    french = client.request(method, f"{path}?lang=fr", json={} if method == "POST" else None).json()
    assert english["message"] != french["message"]  # translated, not the English text again


def test_a_requests_budget_counts_only_its_time_waiting_on_the_database() -> None:
    """Computing (a review, say) between store calls does not spend the budget; waiting on the database
    does, and a request whose calls have waited it out is refused at once."""
    import contextvars
    import time as clock

    from parlour.server import persistence

    def request() -> None:
        assert persistence.call_seconds() == persistence.STORE_SECONDS
        clock.sleep(0.2)  # other work
        assert persistence.call_seconds() == persistence.STORE_SECONDS
        with persistence._counted():
            clock.sleep(0.2)  # a call that waited
        spent = persistence._request_spent.get()
        assert spent is not None and spent[0] == pytest.approx(0.2, abs=0.05)
        spent[0] = persistence.REQUEST_SECONDS - 1.0  # most of it waited already: one second left
        assert persistence.call_seconds() == pytest.approx(1.0)
        spent[0] = persistence.REQUEST_SECONDS
        with pytest.raises(StoreUnavailable):
            persistence.call_seconds()

    context = contextvars.copy_context()
    context.run(persistence._request_spent.set, [0.0])
    context.run(request)
    assert persistence.call_seconds() == persistence.STORE_SECONDS  # outside a request: no budget
