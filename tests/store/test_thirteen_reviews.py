"""Reviews of Thirteen matches over HTTP and on their page: only a finished match (its code and salt
are public then), each seated person the review of their own seat, nobody else; the same numbers as
``parlour thirteen review`` with the match's code and moves."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from parlour.cli import main
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen import Match, Rules
from parlour.thirteen.review_texts import review_positions

from .test_pages import me

CODE = "TH1-AAAAAAC"
ONE_POINT = Rules(target_points=1)
BOTS = [{"kind": "bot", "strength": "greedy"}] * 3


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def one_round(code: str = CODE) -> list[str]:
    """Every seat plays its first legal move until the match to one point ends."""
    match = Match.from_code(code, ONE_POINT)
    moves: list[str] = []
    while not match.over:
        seat = match.turn
        assert seat is not None
        move = match.legal_moves(seat)[0]
        match.apply(seat, move)
        moves.append(str(move))
    return moves


def played(
    store: Store, player_id: int, seats: list[object], moves: list[str], *, finish: bool = True
) -> str:
    game_id = store.start_game(player_id, "thirteen", ONE_POINT, CODE, seats)
    store.append_moves(game_id, player_id, 0, moves)
    if finish:
        store.finish_game(game_id, player_id)
    return game_id


def test_a_finished_match_is_reviewed_as_the_command_line_reviews_it(
    client: TestClient, store: Store
) -> None:
    player_id = me(client, store)
    moves = one_round()
    game_id = played(store, player_id, ["human", *BOTS], moves)
    answer = client.get(f"/api/games/{game_id}/review")
    assert answer.status_code == 200, answer.text
    review = answer.json()["review"]
    assert answer.json()["game"] == "thirteen" and review["seat"] == 0 and review["status"] == "finished"
    said = CliRunner().invoke(
        main, ["thirteen", "review", CODE, *moves, "--points", "1", "--json"], catch_exceptions=False
    )
    assert json.loads(said.stdout) == review  # the command line's review, number for number
    assert [step["move"] for step in review["steps"]] == moves
    assert {decision["grade"] for decision in review["decisions"]} <= {
        "best", "good", "inaccuracy", "mistake", "blunder"
    }  # fmt: skip
    page = client.get(f"/thirteen/review/{game_id}", headers={"Accept-Language": "hu"})
    assert page.status_code == 200 and 'lang="hu"' in page.text
    data = json.loads(re.search(r'id="review-data">(.*?)</script>', page.text, re.S).group(1))  # type: ignore[union-attr]
    assert len(data["positions"]) == len(moves) + 1 == len(data["steps"])
    assert all(len(hand) == 13 for hand in data["positions"][0]["hands"])  # every hand, as dealt
    assert sum(len(hand) for hand in data["positions"][-1]["hands"]) < 52


def test_the_positions_follow_the_moves_card_by_card() -> None:
    moves = one_round()
    review = {
        "rounds": [{"number": 1, "hands": [hand.split() for hand in _dealt(CODE)]}],
        "steps": [],
    }
    match = Match.from_code(CODE, ONE_POINT)
    for index, text in enumerate(moves, start=1):
        seat = match.turn
        assert seat is not None
        match.apply(seat, match.legal_moves(seat)[0])
        cleared = not match.over and match.round.table_shape is None
        review["steps"].append({"index": index, "round": 1, "seat": seat, "move": text, "cleared": cleared})
    positions = review_positions(review)
    replay = Match.from_code(CODE, ONE_POINT)
    for position, text in zip(positions[1:], moves, strict=True):
        seat = replay.turn
        assert seat is not None
        replay.apply(seat, replay.legal_moves(seat)[0])
        if not replay.over:
            view = replay.view(0)
            assert len(position["hands"][0]) == len(view.hand) and position["hands"][0] == [
                str(card) for card in view.hand
            ]
            assert position["table"] == [str(card) for card in view.table]
        assert position["move"] == text


def _dealt(code: str) -> list[str]:
    from parlour.thirteen.order import text_of

    return [text_of(hand) for hand in Match.from_code(code, ONE_POINT).round.hands]


def test_no_review_while_the_match_is_played_nor_of_a_match_left_unfinished(
    client: TestClient, store: Store
) -> None:
    player_id = me(client, store)
    moves = one_round()
    playing = played(store, player_id, ["human", *BOTS], moves[:5], finish=False)
    assert client.get(f"/api/games/{playing}/review").json()["code"] == "game_open"
    assert client.get(f"/thirteen/review/{playing}").status_code == 409
    left = played(store, player_id, ["human", *BOTS], moves[:5])
    assert client.get(f"/api/games/{left}/review").json()["code"] == "no_review"
    assert client.get(f"/thirteen/review/{left}").status_code == 404


def test_each_person_at_a_table_reviews_their_own_seat_and_nobody_else_any(
    client: TestClient, store: Store
) -> None:
    host = me(client, store)
    friend = store.create_player("Bea")
    stranger = store.create_player("Eve")
    seats = [
        {"kind": "human", "player": host, "name": "Ada", "owner": True},
        BOTS[0],
        {"kind": "human", "player": friend.player_id, "name": "Bea"},
        BOTS[0],
    ]
    game_id = played(store, host, seats, one_round())
    mine = client.get(f"/api/games/{game_id}/review").json()["review"]
    assert mine["seat"] == 0
    theirs = TestClient(client.app)
    theirs.cookies.set("parlour_token", friend.token)
    hers = theirs.get(f"/api/games/{game_id}/review").json()["review"]
    assert hers["seat"] == 2 and hers["decisions"] != mine["decisions"]
    assert client.get(f"/api/games/{game_id}/review").json()["review"] == mine  # each kept apart
    page = theirs.get(f"/thirteen/review/{game_id}")
    assert page.status_code == 200 and "Ada" in page.text
    other = TestClient(client.app)
    other.cookies.set("parlour_token", stranger.token)
    assert other.get(f"/api/games/{game_id}/review").json()["code"] == "no_such_game"
    assert other.get(f"/thirteen/review/{game_id}").status_code == 404


def test_the_command_line_reviews_a_stored_match_by_its_id(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    moves = one_round()
    game_id = played(store, player_id, ["human", *BOTS], moves)
    url = store.url.render_as_string(hide_password=False)
    # "--" first: an id may begin with "-" (ids are URL-safe base64).
    said = CliRunner().invoke(main, ["thirteen", "review", "--database-url", url, "--json", "--", game_id])
    assert said.exit_code == 0, said.output
    assert json.loads(said.stdout) == client.get(f"/api/games/{game_id}/review").json()["review"]
    args = ["thirteen", "review", "--database-url", url]
    in_words = CliRunner().invoke(main, [*args, "--lang", "fr", "--", game_id])
    assert in_words.exit_code == 0 and "Manche 1" in in_words.stdout
    playing = played(store, player_id, ["human", *BOTS], moves[:4], finish=False)
    refused = CliRunner().invoke(main, [*args, "--", playing])
    assert refused.exit_code == 1 and f"Match {playing} is not finished" in refused.output
    assert "Traceback" not in refused.output
    unknown = CliRunner().invoke(main, [*args, "no-such-match"])
    assert unknown.exit_code == 1 and "There is no stored match no-such-match." in unknown.output


def test_the_history_lists_the_last_finished_games_with_their_reviews(
    client: TestClient, store: Store
) -> None:
    player_id = me(client, store)
    assert store.finished_games(player_id) == [] and store.finished_games(None) == []
    moves = one_round()
    left = played(store, player_id, ["human", *BOTS], moves[:5])
    done = played(store, player_id, ["human", *BOTS], moves)
    open_one = played(store, player_id, ["human", *BOTS], moves[:3], finish=False)
    history = store.finished_games(player_id)
    assert [game.game_id for game in history] == [done, left]  # the newest first; none in play
    assert [game.status for game in history] == ["finished", "left"]
    friend = store.create_player("Bea")
    seats = [{"kind": "human", "player": player_id, "name": "Ada"}, BOTS[0]]
    at_table = played(
        store, player_id, [*seats, {"kind": "human", "player": friend.player_id}, BOTS[0]], moves
    )
    assert [game.game_id for game in store.finished_games(friend.player_id)] == [at_table]
    assert len(store.finished_games(player_id, limit=1)) == 1
    page = client.get("/stats", headers={"Accept-Language": "fr"})
    assert page.status_code == 200 and "Parties récentes" in page.text
    assert f'href="/thirteen/review/{done}"' in page.text and "Abandonnée" in page.text
    assert f"/thirteen/review/{left}" not in page.text and open_one not in page.text
