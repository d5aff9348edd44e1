"""A ranked deal stays secret until its ranking closes (decision 0060): every way into today's daily deal
or a challenge's deal that a player has (leave before a move, stuck, reload, a second tab, a fresh
cookie, a challenge answered or not) is tried, and every frame, page and API answer is scanned for the
code, its seed and the deal's hidden cards."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.games.base import DAILY_SECRET
from parlour.server.app import create_app
from parlour.store import Store
from parlour.store.daily import NEW_PLAYERS_PER_ADDRESS, today
from parlour.thirteen import MatchCode
from parlour.thirteen.definition import ThirteenDefinition
from parlour.tripeaks import Deal, DealCode, Game
from parlour.tripeaks.definition import TriPeaksDefinition

from .test_challenges import csrf_of, friend_of
from .test_pages import me

TRIPEAKS = TriPeaksDefinition()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def giveaways(code: str) -> list[str]:
    """What would give a deal away: its code, the seed part of it, and the order of its hidden cards
    (the stock from its top, the face-down cards by position) as any page would spell them."""
    deal = Deal.from_code(code)
    stock = " ".join(str(card) for card in deal.stock[:6])
    hidden = " ".join(str(card) for card in deal.tableau[:6])
    return [code, code.split("-")[2], stock, json.dumps([str(c) for c in deal.stock[:4]]), hidden]


def assert_hidden(texts: list[str], code: str) -> None:
    for text in texts:
        for giveaway in giveaways(code):
            assert giveaway not in text, giveaway


def socket_frames(client: TestClient, game_id: str, moves: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """Open the game's socket, play ``moves`` and return every frame received, as text."""
    frames: list[str] = []
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        frames.append(json.dumps(socket.receive_json()))
        for ref, move in enumerate(moves, start=1):
            socket.send_json({"type": "action", "action": {"move": move}, "ref": ref})
            while (message := socket.receive_json())["type"] != "ack":
                frames.append(json.dumps(message))
            frames.append(json.dumps(message))
    return frames


def start_daily(client: TestClient, rules: str = "easy") -> None:
    page = client.get("/tripeaks/daily")
    started = client.post(
        "/tripeaks/daily/play", data={"csrf": csrf_of(page.text), "rules": rules}, follow_redirects=False
    )
    assert started.status_code == 303


def everything_a_player_sees(client: TestClient, game_id: str) -> list[str]:
    day = today().isoformat()
    review = client.get(f"/api/games/{game_id}/review")
    assert review.status_code in (404, 409), review.text
    return [
        client.get("/tripeaks").text,
        client.get("/tripeaks/daily").text,
        client.get(f"/api/daily/tripeaks/easy/{day}").text,
        client.get(f"/tripeaks/review/{game_id}").text,
        review.text,
        client.get("/stats").text,
        client.get(f"/api/games/{game_id}/outcome").text,
        *socket_frames(client, game_id),
    ]


def stuck_moves(code: str, seed: int = 0) -> list[str]:
    """Moves of random play from the deal until it is stuck or won."""
    game, chooser, moves = Game.from_code(code), random.Random(seed), []
    while game.status == "playing":
        move = chooser.choice(game.legal_actions())
        game.apply(move)
        moves.append(move)
    return moves


def test_a_daily_attempt_left_before_a_move_shows_nothing_and_the_next_one_neither(
    client: TestClient, store: Store
) -> None:
    player_id = me(client, store)
    start_daily(client)
    [left] = store.open_games(player_id, "tripeaks")
    code = left.code
    assert code.startswith("TP2-E-") and store.daily_deal("tripeaks", "easy", today()).code == code
    assert client.post(f"/api/games/{left.id}/leave").status_code == 200
    refused = client.get(f"/api/games/{left.id}/review")
    assert refused.status_code == 409 and refused.json()["code"] == "ranked_open"
    assert "the day is over" in refused.json()["message"]
    assert_hidden(everything_a_player_sees(client, left.id), code)
    # The next attempt counts; it is dealt the same way, and shows nothing either.
    start_daily(client)
    [again] = store.open_games(player_id, "tripeaks")
    assert again.code == code and again.id != left.id
    assert_hidden(socket_frames(client, again.id, ["draw"]), code)


def test_a_stuck_attempt_counted_reloaded_and_in_two_tabs_shows_nothing(
    client: TestClient, store: Store
) -> None:
    player_id = me(client, store)
    start_daily(client)
    [record] = store.open_games(player_id, "tripeaks")
    moves = stuck_moves(record.code)
    second_tab = TestClient(client.app, cookies=client.cookies)
    frames = socket_frames(client, record.id, moves[: len(moves) // 2])
    frames += socket_frames(second_tab, record.id, moves[len(moves) // 2 :])
    frames += socket_frames(client, record.id)  # a reload of the first tab at the end
    assert_hidden(frames, record.code)
    left = client.post(f"/api/games/{record.id}/leave")  # the end window ends a stuck game: it counts
    assert left.status_code == 200 and left.json()["outcome"]["daily"] == "counted"
    assert_hidden([left.text, *everything_a_player_sees(client, record.id)], record.code)
    assert_hidden(everything_a_player_sees(second_tab, record.id), record.code)


def test_a_fresh_cookie_learns_nothing_from_a_counted_attempt(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    start_daily(client)
    [record] = store.open_games(player_id, "tripeaks")
    socket_frames(client, record.id, stuck_moves(record.code))
    client.post(f"/api/games/{record.id}/leave")
    fresh = TestClient(client.app)
    assert_hidden(
        [
            fresh.get("/tripeaks/daily").text,
            fresh.get(f"/api/daily/tripeaks/easy/{today().isoformat()}").text,
        ],
        record.code,
    )
    assert fresh.get(f"/api/games/{record.id}/review").status_code == 404


def test_after_the_day_the_deal_and_the_review_are_public(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    yesterday = today() - timedelta(days=1)
    deal = store.daily_deal("tripeaks", "easy", yesterday)
    new = TRIPEAKS.ranked(deal.code, {DAILY_SECRET: yesterday.isoformat()})
    assert new.spec is not None
    game_id = store.record_game(player_id, TRIPEAKS, new.spec)
    store.append_moves(game_id, player_id, 0, ["draw"])
    store.finish_game(game_id, player_id)
    assert client.get(f"/api/games/{game_id}/review").status_code == 200
    [first, *_] = socket_frames(client, game_id)
    assert json.loads(first)["view"]["code"] == deal.code
    assert deal.code in client.get(f"/tripeaks/daily/{yesterday.isoformat()}").text


def test_a_live_daily_attempt_won_keeps_its_code_until_midnight() -> None:
    code = str(DealCode.secret())
    new = TRIPEAKS.ranked(code, {DAILY_SECRET: today().isoformat()})
    live = new.game
    from parlour.tripeaks.solver.solve import solve

    for move in solve(Game.from_code(code)).line or []:
        live.act(0, {"move": move})
    if live.finished:  # most deals are won by the solver's line
        assert live.view(0).to_json()["code"] is None
    past = TRIPEAKS.ranked(code, {DAILY_SECRET: (today() - timedelta(days=1)).isoformat()}).game
    for move in solve(Game.from_code(code)).line or []:
        past.act(0, {"move": move})
    assert past.view(0).to_json()["code"] == (code if past.finished else None)


def won_game(store: Store, player_id: int) -> str:
    """A random deal (drawn in secret by the server) played to its end; return its record's id."""
    new = TRIPEAKS.new({})
    assert new.spec is not None and new.spec.deal_drawn and new.spec.code.startswith("TP2-")
    game_id = store.record_game(player_id, TRIPEAKS, new.spec)
    store.append_moves(game_id, player_id, 0, ["draw", "draw"])
    store.finish_game(game_id, player_id)
    return game_id


def test_a_ranked_challenge_shows_a_friend_nothing_until_their_answer_counts(
    client: TestClient, store: Store
) -> None:
    ada = me(client, store)
    offered = won_game(store, ada)
    made = client.post(f"/api/games/{offered}/challenge").json()
    assert made["ranked"] is True
    bea = friend_of(client, store, "Bea")
    invited = bea.get(made["url"])
    assert "A ranked challenge" in invited.text
    bea_id = store.player_by_token(bea.cookies["parlour_token"]).player_id  # type: ignore[union-attr]

    def accept() -> Any:
        page = bea.get(made["url"])
        bea.post(f"{made['url']}/play", data={"csrf": csrf_of(page.text)}, follow_redirects=False)
        [attempt] = store.open_games(bea_id, "tripeaks")
        return attempt

    left = accept()
    code = left.code
    bea.post(f"/api/games/{left.id}/leave")  # before any move: it is no answer
    refused = bea.get(f"/api/games/{left.id}/review")
    assert refused.status_code == 409 and refused.json()["code"] == "ranked_open"
    assert_hidden(
        [refused.text, bea.get(made["url"]).text, bea.get("/tripeaks").text, *socket_frames(bea, left.id)],
        code,
    )
    answer = accept()
    assert_hidden(socket_frames(bea, answer.id, ["draw"]), code)
    bea.post(f"/api/games/{answer.id}/leave")  # with a move: the answer counts, both have played
    assert bea.get(f"/api/games/{answer.id}/review").status_code == 200
    assert json.loads(socket_frames(bea, answer.id)[0])["view"]["code"] == code


def test_a_challenge_of_a_public_deal_says_it_is_open(client: TestClient, store: Store) -> None:
    ada = me(client, store)
    for options in ({"number": 1234}, {"code": str(DealCode.secret())}):
        new = TRIPEAKS.new(options)
        assert new.spec is not None and not new.spec.deal_drawn
        game_id = store.record_game(ada, TRIPEAKS, new.spec)
        store.append_moves(game_id, ada, 0, ["draw"])
        store.finish_game(game_id, ada)
        made = client.post(f"/api/games/{game_id}/challenge").json()
        assert made["ranked"] is False
        assert (
            "An open challenge"
            in friend_of(client, store, f"Cy {len(made['url'])}{game_id[:4]}").get(made["url"]).text
        )


def test_one_address_ranks_a_few_new_players_a_day_and_the_board_marks_them(
    client: TestClient, store: Store
) -> None:
    ids = []
    for index in range(NEW_PLAYERS_PER_ADDRESS + 1):
        fresh = TestClient(client.app)
        player_id = me(fresh, store)
        capped = index == NEW_PLAYERS_PER_ADDRESS
        assert ("played, but not ranked" in fresh.get("/tripeaks/daily").text) == capped
        start_daily(fresh)
        [record] = store.open_games(player_id, "tripeaks")
        assert ("unranked" in (record.secret or {})) == capped
        socket_frames(fresh, record.id, ["draw"])
        fresh.post(f"/api/games/{record.id}/leave")
        ids.append(player_id)
    board = client.get(f"/api/daily/tripeaks/easy/{today().isoformat()}").json()
    assert board["total"] == NEW_PLAYERS_PER_ADDRESS  # the last one played, unranked
    assert all(entry["new"] for entry in board["leaderboard"])
    page = TestClient(client.app).get("/tripeaks/daily").text
    assert page.count('class="new-player"') == NEW_PLAYERS_PER_ADDRESS


def test_daily_thirteen_keeps_its_code_and_salt_until_the_day_is_over() -> None:
    definition = ThirteenDefinition()
    code = str(MatchCode.secret())
    for day, shown in ((today(), False), (today() - timedelta(days=1), True)):
        table = definition.ranked(code, {DAILY_SECRET: day.isoformat()}).game
        match = table.match  # type: ignore[attr-defined]
        while not match.over:
            seat = match.turn
            match.apply(seat, match.legal_moves(seat)[0])
        fairness = table.fairness().to_json()  # type: ignore[attr-defined]
        assert ("code" in fairness) == shown and ("salt" in fairness) == shown
        assert fairness.get("later") == (None if shown else "day")
