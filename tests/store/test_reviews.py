"""Reviews of finished games over HTTP (``GET /api/games/{id}/review``): given only for a game that is
over and only to its player, computed once in a worker process, kept with the game and given again
from the store; the same numbers as ``parlour tripeaks review`` with the game's code and moves."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from parlour.cli import main
from parlour.server.app import create_app
from parlour.server.owners.review_pool import ReviewsBusy
from parlour.store import Store
from parlour.tripeaks.solver import compiled_available

from .lines import code_of, stuck_line
from .test_pages import finish, me


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def test_a_finished_game_is_reviewed_once_and_kept(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    player_id = me(client, store)
    moves = stuck_line(code_of(4))
    game_id = finish(store, player_id, 4, moves)
    answer = client.get(f"/api/games/{game_id}/review")
    assert answer.status_code == 200, answer.text
    review = answer.json()["review"]
    assert answer.json()["game"] == "tripeaks" and len(review["moves"]) == len(moves)
    assert len(review["deal"]["tableau"]) == 28  # the game is over: every card may be shown now
    args = ["tripeaks", "review", code_of(4), *moves, "--json"]
    if not compiled_available():
        args.append("--exact-only")
    said = json.loads(CliRunner().invoke(main, args).stdout)
    assert {key: review[key] for key in said} == said  # the command line's review, number for number

    def not_again(*_: Any) -> Any:
        raise AssertionError("a kept review is computed again")

    monkeypatch.setattr(client.app.state.parlour.reviews, "review", not_again)  # type: ignore[attr-defined]
    assert client.get(f"/api/games/{game_id}/review").json()["review"] == review


def test_no_review_of_a_game_in_play_nor_of_anyone_elses(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    playing = store.start_game(player_id, "tripeaks", "easy", code_of(5), ["human"], numbered=5)
    store.append_moves(playing, player_id, 0, stuck_line(code_of(5))[:3])
    refused = client.get(f"/api/games/{playing}/review")
    assert refused.status_code == 409 and refused.json()["code"] == "game_open"
    other = store.create_player("Eve")
    theirs = finish(store, other.player_id, 6, stuck_line(code_of(6)))
    for game_id in (theirs, "no-such-game", "x" * 200):
        assert client.get(f"/api/games/{game_id}/review").json()["code"] == "no_such_game"
    stranger = TestClient(client.app)
    assert stranger.get(f"/api/games/{theirs}/review").status_code == 404
    with pytest.raises(Exception, match="still being played"):
        store.keep_review(playing, player_id, {"forged": True})


def test_a_game_without_reviews_says_so_and_busy_reviews_ask_to_come_back(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    player_id = me(client, store)
    thirteen = client.post("/api/games/thirteen", json={}).json()["game"]
    client.post(f"/api/games/{thirteen}/leave")
    assert client.get(f"/api/games/{thirteen}/review").json()["code"] == "no_review"
    game_id = finish(store, player_id, 7, stuck_line(code_of(7)))

    async def busy(*_: Any) -> Any:
        raise ReviewsBusy("busy")

    monkeypatch.setattr(client.app.state.parlour.reviews, "review", busy)  # type: ignore[attr-defined]
    answer = client.get(f"/api/games/{game_id}/review?lang=hu")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
    assert answer.json()["code"] == "reviews_busy" and "próbáld újra" in answer.json()["message"]


def test_the_latest_numbered_game_links_to_its_review_page(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    moves = stuck_line(code_of(8))
    game_id = finish(store, player_id, 8, moves)
    picker = client.get("/tripeaks/numbered", headers={"Accept-Language": "hu"})
    assert f'href="/tripeaks/review/{game_id}"' in picker.text and "Elemzés" in picker.text
    page = client.get(f"/tripeaks/review/{game_id}", headers={"Accept-Language": "fr"})
    assert page.status_code == 200 and "Analyse" in page.text and "Gagnable dès la donne" in page.text


class Dying(Executor):
    """A pool whose worker dies with every job, as a killed or out-of-memory worker process does."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        died: Future[Any] = Future()
        died.set_exception(BrokenProcessPool("a process in the process pool was terminated abruptly"))
        return died


def test_a_worker_that_dies_is_no_500_and_the_next_review_is_made(
    client: TestClient, store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review worker that dies while it works gets the page a 503 to try again (never a 500), and
    the pool starts afresh for the next request."""
    monkeypatch.setattr(logging.getLogger("parlour"), "propagate", True)
    player_id = me(client, store)
    game_id = finish(store, player_id, 9, stuck_line(code_of(9)))
    pool = client.app.state.parlour.reviews  # type: ignore[attr-defined]
    monkeypatch.setattr(pool, "_pool", Dying)
    with caplog.at_level(logging.WARNING, logger="parlour.server"):
        answer = client.get(f"/api/games/{game_id}/review")
    assert answer.status_code == 503 and answer.json()["code"] == "reviews_busy"
    assert any("stopped abruptly" in record.getMessage() for record in caplog.records)
    monkeypatch.undo()
    assert client.get(f"/api/games/{game_id}/review").status_code == 200
