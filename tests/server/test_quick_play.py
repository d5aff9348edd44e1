"""Play now over HTTP and the WebSocket (issue 50): a person is seated at once, a second person takes a
computer-held seat of that table at the next round (watching, with no hand, until then), a rated
round moves both people's ratings, and refusals say what was wrong."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_tables import LOBBY, OPEN, Person, assert_nothing_hidden_seen, card_texts, live_table

from parlour.games import tables as table_module
from parlour.games.registry import default_registry
from parlour.games.tables import TableSettings
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen.codes import MatchCode
from parlour.thirteen.definition import ThirteenDefinition, ThirteenMatch
from parlour.thirteen.game import hands_of
from parlour.thirteen.order import cards_of

GAME = ThirteenDefinition().seated
assert GAME is not None


@pytest.fixture
def app(store: Store) -> Any:
    return create_app(store, games=default_registry())


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client
        for page in OPEN:
            page.close()
        OPEN.clear()


def cookie_of(store: Store, name: str) -> tuple[int, str]:
    new = store.create_player(name)
    return new.player_id, f"parlour_token={new.token}"


def press(client: TestClient, cookie: str, **body: Any) -> Any:
    return client.post("/api/play-now", json=body, headers={"cookie": cookie})


def test_play_now_seats_the_first_person_at_a_new_table_and_the_next_at_its_computer_seats(
    client: TestClient, store: Store
) -> None:
    cookies = [cookie_of(store, name)[1] for name in ("Ana", "Bình", "Csaba", "Dev", "Élise")]
    first = press(client, cookies[0])
    assert first.status_code == 201, first.text
    made = first.json()
    assert (made["seat"], made["seated"], made["new_table"]) == (0, True, True)
    assert made["url"] == f"/thirteen/t/{made['code']}"
    joined = [press(client, cookie).json() for cookie in cookies[1:4]]
    assert {claim["table"] for claim in joined} == {made["table"]}
    assert sorted(claim["seat"] for claim in joined) == [1, 2, 3]
    assert press(client, cookies[1]).json() == joined[0]  # pressing again: the same seat
    fifth = press(client, cookies[4])
    assert fifth.status_code == 201 and fifth.json()["table"] != made["table"]
    other_options = press(client, cookie_of(store, "Fő")[1], strength="expert", target=5)
    assert other_options.json()["table"] not in (made["table"], fifth.json()["table"])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"strength": "godlike"}, "bad_option"),
        ({"target": 0}, "bad_option"),
        ({"target": "ten"}, "bad_option"),
        ({"rated": "yes"}, "bad_option"),
        ({"game": "tripeaks"}, "bad_option"),
        ({"seat": 2}, "bad_option"),
    ],
)
def test_play_now_refuses_bad_options_clearly(client: TestClient, store: Store, body: Any, code: str) -> None:
    _, cookie = cookie_of(store, "Ana")
    answer = press(client, cookie, **body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == code and answer.json()["message"]
    assert store.claim_of(_) is None


def test_claims_of_a_watcher_are_checked(client: TestClient, store: Store) -> None:
    _, first = cookie_of(store, "Ana")
    made = press(client, first).json()
    _, watcher = cookie_of(store, "Wu")
    claim = client.post(f"/api/tables/{made['table']}/claim", json={"seat": 3}, headers={"cookie": watcher})
    assert claim.status_code == 200 and claim.json()["seat"] == 3 and not claim.json()["seated"]
    _, third = cookie_of(store, "Tó")
    taken = client.post(f"/api/tables/{made['table']}/claim", json={"seat": 3}, headers={"cookie": third})
    assert taken.status_code == 400 and taken.json()["code"] == "seat_taken"
    missing = client.post("/api/tables/nothing-here/claim", json={}, headers={"cookie": third})
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_table"
    assert client.delete("/api/play-now", headers={"cookie": watcher}).status_code == 204
    again = client.post(f"/api/tables/{made['table']}/claim", json={"seat": 3}, headers={"cookie": third})
    assert again.status_code == 200


def play_round(person: Person) -> None:
    """Play the person's turns (their first legal move) until the round ends."""
    while not person.view.get("between_rounds"):
        if person.view.get("my_turn"):
            move = person.ask_legal()[0]
            if move == "pass":
                person.act(type="pass")
            else:
                person.act(type="play", cards=move.split())
        else:
            person.receive()


@pytest.mark.timeout(120)
def test_a_seat_is_handed_over_at_the_next_round_and_rated(
    client: TestClient, app: Any, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_module, "NEXT_ROUND_SECONDS", 0.3)
    _, first = cookie_of(store, "Ana")
    second_id, second = cookie_of(store, "Bình")
    # The first table is made fast for the test (its computer players move at once, no turn timer):
    # the second person's Play now must still find it, as it shares the options.
    settings = TableSettings.for_quick_play(GAME, GAME.rules({"target_points": 50}), "greedy", rated=True)
    fast = TableSettings.from_record(GAME, {**settings.to_json(), "speed": "instant", "turn_seconds": 0})
    made = press(client, first, rated=True, target=50, strength="greedy").json()
    record = store.table(made["table"])
    store.save_table(replace(record, settings=fast.to_json()))
    ana = Person(client, made["table"], first)
    assert ana.hello()["type"] == "state"
    ana.until("started")
    claim = press(client, second, rated=True, target=50, strength="greedy").json()
    assert claim["table"] == made["table"] and not claim["seated"]
    seat = claim["seat"]
    binh = Person(client, made["table"], second)
    state = binh.hello()
    assert state["view"]["tables"]["you"] is None and state["view"]["hand"] == []  # watching, no hand
    table = live_table(app, made["table"])
    match = table.match
    assert isinstance(match, ThirteenMatch)
    played = {str(card) for move in match.match.moves for card in move.cards}
    assert set(card_texts(state)) <= played  # joining mid-round shows only what was played
    deals = MatchCode.parse(match.match.code)
    hands = [[str(card) for card in cards_of(hand)] for hand in hands_of(deals.round_deck(1))]
    play_round(ana)
    ana.act(type="continue")
    handed = binh.until("next_round")
    assert seat in handed["data"]["handed_over"]
    assert handed["data"]["seats"][seat]["kind"] == "person"
    unplayed = [[card for card in hand if card not in played] for hand in hands]
    assert_nothing_hidden_seen(binh.seen[1:], unplayed, LOBBY)
    binh.socket.send_json({"type": "hello", "v": None})  # the page joins again: from its seat now
    mine = binh.receive()
    while mine["type"] != "state":
        mine = binh.receive()
    assert mine["view"]["tables"]["you"] == seat and len(mine["view"]["hand"]) == 13
    assert store.claim_of(second_id).seated  # type: ignore[union-attr]
    rating = client.get("/api/players/me/rating", headers={"cookie": first}).json()
    assert rating["rating"]["rounds"] == 1 and len(rating["history"]) == 1
    assert rating["rating"]["provisional"] is True and rating["rating"]["closest"] in GAME.computer_ratings
    assert client.get("/api/players/me/rating", headers={"cookie": second}).json()["rating"] is None
    page = client.get("/player", headers={"cookie": first})
    assert page.status_code == 200 and 'data-role="rating"' in page.text  # one round: no chart yet
    playing = client.get("/api/tables/playing").json()["tables"]
    assert [entry["table"] for entry in playing] == [made["table"]]
    assert {seat["name"] for seat in playing[0]["seats"] if seat["kind"] == "person"} == {"Ana", "Bình"}
    tables_page = client.get("/thirteen/tables", headers={"cookie": first})
    assert made["url"] in tables_page.text and "Bình" in tables_page.text


def test_the_leaderboard_pages(client: TestClient, store: Store) -> None:
    page = client.get("/ratings/thirteen")
    assert page.status_code == 200
    for name in ("Expert", "Beginner"):
        assert name in page.text
    assert client.get("/ratings/tripeaks").status_code == 404
    board = client.get("/api/ratings?game=thirteen&week=1").json()
    assert board == {"game": "thirteen", "week": True, "people": []}
    assert client.get("/api/ratings?game=nothing").status_code == 400


def test_a_name_is_reported_from_a_public_table(client: TestClient, store: Store) -> None:
    ana_id, ana = cookie_of(store, "Ana")
    _, rude = cookie_of(store, "Rudey")
    made = press(client, ana).json()
    record = store.table(made["table"])
    seats = list(record.seats)
    seats[1] = {"kind": "person", "name": "Rudey", "player": store.players_named("Rudey")[0].player_id}
    store.save_table(replace(record, seats=seats))
    answer = client.post(f"/api/tables/{made['table']}/report", json={"seat": 1}, headers={"cookie": ana})
    assert answer.status_code == 200 and answer.json() == {"name": "Rudey"}
    assert [entry.name for entry in store.reported_names()] == ["Rudey"]
    for body, code in (({"seat": 0}, "nothing_to_report"), ({"seat": "1"}, "bad_option"), ({}, "bad_option")):
        refused = client.post(f"/api/tables/{made['table']}/report", json=body, headers={"cookie": ana})
        assert refused.status_code == 400 and refused.json()["code"] == code, refused.text
    missing = client.post("/api/tables/no-table/report", json={"seat": 1}, headers={"cookie": ana})
    assert missing.status_code == 404
    assert ana_id and rude
