"""Friends' tables over HTTP and the WebSocket: create, sit, computer players, start, a whole round with
three people, seat tokens, refusals that change nothing, away people played for and coming back, chat,
rematch, restore after a restart; and no message to a seat ever holds another seat's card."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from parlour.cards import Card
from parlour.games.registry import default_registry
from parlour.games.tables import FriendsTable
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen.codes import MatchCode
from parlour.thirteen.definition import ThirteenMatch
from parlour.thirteen.game import hands_of
from parlour.thirteen.order import cards_of

LOBBY = 4  # a Thirteen table's lobby: the seat after its four
FAST = {"speed": "instant"}


@pytest.fixture
def app(store: Store) -> Any:
    return create_app(store, games=default_registry())


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client
        for page in OPEN:  # a failed test leaves sockets open: close them before the app stops
            page.close()
        OPEN.clear()


OPEN: list[Person] = []


class Person:
    """One person's page at a table: its socket, everything it was sent, its latest view."""

    def __init__(self, client: TestClient, table_id: str, cookie: str, token: str | None = None) -> None:
        self.context = client.websocket_connect(f"/ws/table/{table_id}", headers={"cookie": cookie})
        self.socket: WebSocketTestSession = self.context.__enter__()
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.version = -1
        self.token = token
        self.ref = 0
        self.closed = False
        OPEN.append(self)

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.socket.receive_json()
        self.seen.append(message)
        if message.get("view"):
            self.view = message["view"]
        if message["type"] in ("state", "event"):
            self.version = message["v"]
        return message

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.socket.send_json({"type": "hello", "v": None, "seat_token": token or self.token})
        return self.receive()

    def act(self, **action: Any) -> dict[str, Any]:
        """Send an action; return its ack or error (the events before it are kept)."""
        self.ref += 1
        self.socket.send_json({"type": "action", "action": action, "ref": self.ref})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error") and message.get("ref") == self.ref:
                return message

    def ask_legal(self) -> list[str]:
        self.ref += 1
        self.socket.send_json({"type": "legal", "ref": self.ref})
        while True:
            message = self.receive()
            if message["type"] == "legal" and message["ref"] == self.ref:
                moves: list[str] = message["moves"]
                return moves

    def until(self, name: str) -> dict[str, Any]:
        """Receive until an event of this name; return it."""
        while True:
            message = self.receive()
            if message["type"] == "event" and message["name"] == name:
                return message

    def sync(self, version: int) -> None:
        """Receive until this page has seen every event up to ``version``."""
        while self.version < version:
            self.receive()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.context.__exit__(None, None, None)


CARD = re.compile(r"^(?:[2-9TJQKA][SCDH])$")


def card_texts(value: Any) -> Iterator[str]:
    """Every text anywhere in a message that reads as a card (keys and values, at any depth)."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_texts(key)
            yield from card_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_texts(item)


def assert_nothing_hidden_seen(seen: list[dict[str, Any]], hands: list[list[str]], seat: int) -> None:
    """Check every frame one page was sent, in order: a card of another seat's hand appears only once it
    has been played (or the round is over, when every hand is shown), and no other seat's selection
    (its event, its verdict) ever reaches the page."""
    hidden = {card for other, hand in enumerate(hands) if other != seat for card in hand}
    for message in seen:
        data = message.get("data") or {}
        if message.get("type") == "event" and message.get("name") == "selection":
            assert seat != LOBBY and set(data["cards"]) <= set(hands[seat]), (seat, message)
        if message.get("type") == "event" and message.get("name") == "play":
            hidden -= set(data["cards"])  # played: every seat sees it now
            if data.get("round_result"):
                return  # the round's end shows every seat's cards left: nothing is hidden any more
        leaked = hidden & set(card_texts(message))
        assert not leaked, (seat, leaked, message)


def player_cookie(store: Store) -> str:
    return f"parlour_token={store.create_player().token}"


def new_table(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"name": "Ana", "settings": {**FAST, **settings}})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def thirteen_of(table: FriendsTable) -> ThirteenMatch:
    """Return a table's Thirteen match (these tests deal Thirteen)."""
    assert isinstance(table.match, ThirteenMatch)
    return table.match


def live_table(app: Any, table_id: str) -> FriendsTable:
    owner = app.state.parlour.tables.get(table_id)
    assert owner is not None
    table: FriendsTable = owner.game
    return table


def host_of(client: TestClient, made: dict[str, Any]) -> Person:
    cookie = f"parlour_token={client.cookies['parlour_token']}"
    host = Person(client, made["table"], cookie, made["seat_token"])
    assert host.hello()["type"] == "state"
    return host


def test_a_table_is_made_with_a_code_and_the_host_in_seat_0(client: TestClient, app: Any) -> None:
    made = new_table(client)
    assert len(made["code"]) == 6 and made["url"] == f"/thirteen/t/{made['code']}"
    page = client.get(made["url"].lower())  # a code typed in lower case finds its table too
    assert page.status_code == 200 and made["table"] in page.text
    assert made["seat_token"] not in page.text
    host = host_of(client, made)
    tables = host.view["tables"]
    assert tables["you"] == 0 and tables["host"] == 0 and tables["phase"] == "gathering"
    assert [seat["kind"] for seat in tables["seats"]] == ["person", "empty", "empty", "empty"]
    assert tables["seats"][0]["name"] == "Ana" and tables["seats"][0]["connected"]
    assert "token_hash" not in json.dumps(host.seen) and "player" not in tables["seats"][0]
    host.close()


def test_bad_table_requests_are_refused_clearly(client: TestClient) -> None:
    for body, code in [
        ({"settings": {"turn_seconds": 7}}, "bad_option"),
        ({"settings": {"turn_seconds": True}}, "bad_option"),
        ({"settings": {"rules": {"target_points": 0}}}, "bad_option"),
        ({"settings": {"rules": {"duplicate_deals": 7}}}, "bad_option"),
        ({"settings": {"rules": {"duplicate_deals": -1}}}, "bad_option"),
        ({"settings": {"colour": "red"}}, "bad_option"),
        ({"seats": 4}, "bad_option"),
        ([1, 2], "bad_option"),
    ]:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400 and response.json()["code"] == code, (body, response.text)
    assert client.get("/thirteen/t/ZZZZZZ").status_code == 404
    assert client.get("/thirteen/t/not-a-code-at-all").status_code == 404
    joined = client.get("/thirteen/join", params={"code": " k7q-x2m "}, follow_redirects=False)
    assert joined.headers["location"] == "/thirteen/t/K7QX2M"
    with client.websocket_connect("/ws/table/nonsense") as socket:
        assert socket.receive_json() == {"type": "refused", "code": "no_such_table"}


def test_the_lobby_says_which_tables_play_a_duplicate_set(client: TestClient) -> None:
    new_table(client, public=True, rules={"duplicate_deals": 2})
    new_table(client, public=True, rules={"target_points": 7})
    lobby = client.get("/thirteen/tables")
    assert lobby.status_code == 200
    assert "Duplicate: 2 deals" in lobby.text and "Points to win: 7" in lobby.text
    assert (
        'name="duplicate_deals"' in lobby.text and "Duplicate: 6 deals, each played four times" in lobby.text
    )
    french = client.get("/thirteen/tables", headers={"accept-language": "fr"})
    assert "Duplicate\u00a0: 2 donnes" in french.text


def test_three_friends_and_a_computer_player_play_a_round(client: TestClient, app: Any, store: Store) -> None:
    made = new_table(client)
    host = host_of(client, made)
    friends = [Person(client, made["table"], player_cookie(store)) for _ in range(2)]
    for friend in friends:
        state = friend.hello()
        assert state["view"]["tables"]["you"] is None  # in the lobby: no seat yet, no hand
    # Refusals change nothing: a taken seat, a non-host adding a computer player, an early start.
    assert friends[0].act(type="sit", seat=0, name="Bo")["code"] == "seat_taken"
    assert friends[0].act(type="add_bot", seat=3)["code"] == "not_host"
    assert host.act(type="start")["code"] == "seats_empty"
    for number, friend in enumerate(friends, start=1):
        ack = friend.act(type="sit", seat=number, name=f"Friend {number}\u0000\u202e")
        assert ack["type"] == "ack" and ack["seat"] == number and len(ack["seat_token"]) > 20
        friend.token = ack["seat_token"]
        friend.receive()  # the state of the new seat
        assert friend.view["tables"]["you"] == number
    assert friends[0].act(type="sit", seat=2)["code"] == "already_seated"
    assert host.act(type="add_bot", seat=3, strength="greedy")["type"] == "ack"
    names = [seat["name"] for seat in live_table(app, made["table"]).view(LOBBY).to_json()["tables"]["seats"]]
    assert names[1] == "Friend 1"  # control characters and bidi overrides are dropped
    started = host.act(type="start")
    assert started["type"] == "ack"
    people = [host, *friends]
    for person in people:
        person.sync(started["v"])
        assert person.view["tables"]["phase"] == "playing" and len(person.view["hand"]) == 13
    table = live_table(app, made["table"])
    assert table.match is not None
    hands = [[str(card) for card in cards_of(mask)] for mask in thirteen_of(table).match.round.hands]
    watcher = Person(client, made["table"], player_cookie(store))  # a friend still in the lobby
    assert watcher.hello()["view"]["tables"]["you"] is None and watcher.view["hand"] == []
    selections = 0
    for seat, person in enumerate(people):
        assert person.view["hand"] == hands[seat]

    # Play the round: each person plays their first legal move on their turn. The pages' own views say
    # whose turn it is, once every page has seen every event any page has seen: a version some page
    # received exists, so no page ever waits for an event that may not come.
    def settle() -> dict[str, Any]:
        latest = max(p.version for p in people)
        for p in people:
            p.sync(latest)
        return host.view

    for _ in range(200):
        view = settle()
        if view["between_rounds"] or table.match.finished:
            break
        turn = view["turn"]
        if turn == 3:  # the computer player moves next: its move is the next event of every page
            following = host.version + 1
            for p in people:
                p.sync(following)
            continue
        person = people[turn]
        legal = person.ask_legal()
        move = legal[0]
        # The person raises a card first (a selection the others must never see), then plays.
        raised = person.view["hand"][-1:]
        if raised and move != "pass" and raised[0] not in move.split():
            moves_before = len(thirteen_of(table).match.moves)  # nothing moves now: it is their turn
            assert person.act(type="select", cards=raised)["type"] == "ack"
            if len(thirteen_of(table).match.moves) != moves_before:
                continue  # a card nothing can join is played as soon as it is raised
            selections += 1
        action = {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}
        reply = person.act(**action)
        assert reply["type"] == "ack", reply
    assert table.match.between_rounds or table.match.finished
    final = max(p.version for p in people)
    for person in people:
        person.sync(final)
    watcher.sync(final)
    assert selections > 0
    # No page was ever sent a card of another seat's hand before it was played, anywhere in a frame,
    # nor another seat's selection; the lobby's watcher was sent no hand at all.
    for seat, person in [*enumerate(people), (LOBBY, watcher)]:
        assert_nothing_hidden_seen(person.seen, hands, seat)
    for person in [*people, watcher]:
        person.close()


def starting_hands(person: Person) -> dict[int, list[str]]:
    """Return the hand a page was first shown in each round of its match (the next round is dealt the
    moment a round ends, so its first view holds all thirteen cards)."""
    hands: dict[int, list[str]] = {}
    for message in person.seen:
        view = message.get("view") or {}
        if view.get("hand") and view["tables"]["phase"] == "playing":
            hands.setdefault(view["round"], list(view["hand"]))
    return hands


@pytest.mark.timeout(240)
def test_a_duplicate_set_of_two_deals_gives_every_person_every_hand_once(
    client: TestClient, app: Any, store: Store
) -> None:
    made = new_table(client, rules={"duplicate_deals": 2})
    host = host_of(client, made)
    friend = Person(client, made["table"], player_cookie(store))
    friend.hello()
    friend.token = friend.act(type="sit", seat=2, name="Bo")["seat_token"]
    for seat in (1, 3):
        assert host.act(type="add_bot", seat=seat, strength="greedy")["type"] == "ack"
    started = host.act(type="start")
    people = {0: host, 2: friend}
    for person in people.values():
        person.sync(started["v"])
    assert host.view["duplicate"]["deals"] == 2 and host.view["duplicate"]["hands"] == ["A", "B", "C", "D"]
    table = live_table(app, made["table"])

    def settle() -> dict[str, Any]:
        latest = max(p.version for p in people.values())
        for p in people.values():
            p.sync(latest)
        return host.view

    for _ in range(2000):
        view = settle()
        if view["winners"]:
            break
        if view["between_rounds"]:
            for seat, person in people.items():
                if not view["tables"]["seats"][seat].get("ready"):
                    assert person.act(type="continue")["type"] == "ack"
            continue
        turn = view["turn"]
        if turn not in people:  # a computer player moves next: its move is every page's next event
            following = host.version + 1
            for p in people.values():
                p.sync(following)
            continue
        move = people[turn].ask_legal()[0]
        action = {"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()}
        assert people[turn].act(**action)["type"] == "ack"
    final = settle()
    assert final["winners"] and len(final["results"]) == 8 and table.match is not None
    # Nothing told the code before the end; then it is revealed, and with it every deal of the set.
    for person in people.values():
        views = [m["view"] for m in person.seen if m.get("view") and "fairness" in m["view"]]
        assert all("code" not in view["fairness"] for view in views if not view["winners"])
    deals = MatchCode.parse(final["fairness"]["code"])
    assert deals.is_secret
    for seat, person in people.items():
        held = starting_hands(person)
        assert sorted(held) == list(range(1, 9))
        for deal in range(2):
            dealt = [
                sorted(str(card) for card in cards_of(hand)) for hand in hands_of(deals.round_deck(deal + 1))
            ]
            got = [sorted(held[round_]) for round_ in held if (round_ - 1) % 2 == deal]
            assert sorted(got) == sorted(dealt), (seat, deal)  # every hand of the deal, once each
    # The comparison: every hand played by all four, each seat's points adding up to its score.
    comparison = final["duplicate"]["comparison"]
    assert len(comparison) == 8 and all(None not in hand["points"] for hand in comparison)
    for seat in range(4):
        assert sum(hand["points"][seat] for hand in comparison) == final["scores"][seat]
    for person in people.values():
        person.close()


def test_seat_tokens_belong_to_their_seat(client: TestClient, app: Any, store: Store) -> None:
    made = new_table(client)
    host = host_of(client, made)
    friend = Person(client, made["table"], player_cookie(store))
    friend.hello()
    token = friend.act(type="sit", seat=2, name="Cy")["seat_token"]
    stranger = Person(client, made["table"], player_cookie(store))
    refused = stranger.hello(token="forged-token-" + "x" * 30)
    assert refused["type"] == "error" and refused["code"] == "bad_seat_token"
    assert stranger.act(type="chat", phrase="hello")["code"] == "bad_message"  # not joined: nothing done
    # Another browser with the friend's token acts for the friend's seat (the token is the seat's key).
    again = stranger.hello(token=token)
    assert again["type"] == "state" and again["view"]["tables"]["you"] == 2
    assert stranger.act(type="start")["code"] == "not_host"  # the seat is not the host's
    for person in (host, friend, stranger):
        person.close()


def test_host_settings_swaps_and_chat(client: TestClient, app: Any, store: Store) -> None:
    made = new_table(client)
    host = host_of(client, made)
    friend = Person(client, made["table"], player_cookie(store))
    friend.hello()
    friend.token = friend.act(type="sit", seat=1, name="Di")["seat_token"]
    assert host.act(type="settings", settings={"turn_seconds": 30, "free_text": True})["type"] == "ack"
    assert friend.act(type="settings", settings={"turn_seconds": 60})["code"] == "not_host"
    assert host.act(type="settings", settings={"grace_seconds": 1})["code"] == "bad_option"
    assert host.act(type="swap", a=1, b=3)["type"] == "ack"
    friend.sync(host.version)
    assert friend.view["tables"]["you"] == 3  # the friend's page follows the friend to the new seat
    assert friend.act(type="chat", phrase="hello")["type"] == "ack"
    host.sync(friend.version)
    chat = next(m for m in reversed(host.seen) if m.get("name") == "chat")
    assert chat["data"] == {"seat": 3, "phrase": "hello"}
    assert friend.act(type="chat", text="<b>hi</b>  there")["type"] == "ack"
    host.sync(friend.version)
    assert host.seen[-1]["data"]["text"] == "<b>hi</b> there"  # kept as text: the page shows it as text
    assert friend.act(type="chat", text="x" * 81)["code"] == "bad_chat"
    assert friend.act(type="chat", phrase="<script>")["code"] == "bad_chat"
    limited = [friend.act(type="chat", phrase="oops") for _ in range(6)]
    assert limited[-1]["code"] == "rate_limited"
    for person in (host, friend):
        person.close()


def test_an_away_person_is_played_for_and_takes_the_seat_back(
    client: TestClient, app: Any, store: Store
) -> None:
    made = new_table(client, grace_seconds=15)
    host = host_of(client, made)
    friend = Person(client, made["table"], player_cookie(store))
    friend.hello()
    token = friend.act(type="sit", seat=1, name="Ed")["seat_token"]
    for seat in (2, 3):
        host.act(type="add_bot", seat=seat)
    host.act(type="start")
    friend.close()
    table = live_table(app, made["table"])
    assert host.until("presence")["data"]["away"] == [1]
    assert host.view["tables"]["seats"][1]["away"]
    # Time passes (the table's clock, not the test's): the grace runs out.
    base = table.clock()
    table.clock = lambda: base + 16
    owner = app.state.parlour.tables.get(made["table"])
    client.portal.call(owner.reschedule)  # type: ignore[union-attr]
    assert host.until("taken_over")["data"] == {"seats": [1]}
    assert host.view["tables"]["seats"][1]["computer"]
    back = Person(client, made["table"], player_cookie(store), token)
    state = back.hello()
    assert state["view"]["tables"]["you"] == 1
    assert host.until("presence")["data"]["reclaimed"] == [1]
    assert not host.view["tables"]["seats"][1]["computer"]
    for person in (host, back):
        person.close()


def test_a_table_comes_back_after_a_restart(store: Store) -> None:
    app = create_app(store, games=default_registry())
    with TestClient(app) as client:
        made = new_table(client)
        host = host_of(client, made)
        for seat in (1, 2, 3):
            host.act(type="add_bot", seat=seat, strength="random")
        host.act(type="start")
        table = live_table(app, made["table"])
        hand = list(host.view["hand"])
        moves = len(thirteen_of(table).match.moves) if table.match else 0
        cookie = client.cookies["parlour_token"]
        host.close()
    restarted = create_app(store, games=default_registry())
    with TestClient(restarted) as client:
        again = Person(client, made["table"], f"parlour_token={cookie}", made["seat_token"])
        state = again.hello()
        assert state["view"]["tables"]["phase"] == "playing"
        restored = live_table(restarted, made["table"])
        assert restored.match is not None and len(thirteen_of(restored).match.moves) >= moves
        played = {
            card for step in thirteen_of(restored).match.moves for card in str(step).split() if card != "pass"
        }
        assert set(state["view"]["hand"]) == set(hand) - played
        assert all(Card.parse(card) for card in state["view"]["hand"])
        again.close()


def test_an_idle_table_leaves_memory_and_comes_back(client: TestClient, app: Any) -> None:
    made = new_table(client)
    host = host_of(client, made)
    host.act(type="add_bot", seat=1)
    host.close()
    tables = app.state.parlour.tables
    deadline = time.monotonic() + 5
    while tables.get(made["table"]).connections and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tables.evict_idle(3600) == 0  # idle, but not for long yet
    assert client.portal.call(lambda: tables.evict_idle(0)) == 1  # type: ignore[union-attr]
    assert tables.get(made["table"]) is None
    again = host_of(client, made)  # restored from its row
    assert [seat["kind"] for seat in again.view["tables"]["seats"]] == ["person", "bot", "empty", "empty"]
    again.close()


def test_guessing_table_codes_is_rate_limited(client: TestClient) -> None:
    answers = [client.get("/thirteen/t/ZZZZZZ").status_code for _ in range(31)]
    assert answers[:30] == [404] * 30 and answers[30] == 429


def test_a_table_socket_keeps_the_same_protocol_rules_as_a_game_socket(client: TestClient) -> None:
    """One dispatcher serves both socket URLs: ``ping`` is answered before ``hello``, every other
    question waits for it, and a game without hints says so in the same words."""
    made = new_table(client)
    cookie = f"parlour_token={client.cookies['parlour_token']}"
    page = Person(client, made["table"], cookie, made["seat_token"])
    page.socket.send_json({"type": "ping", "ref": "alive?"})
    assert page.receive() == {"type": "pong", "ref": "alive?", "v": 0}
    for question in ({"type": "legal", "ref": 1}, {"type": "hint", "ref": 2}, {"type": "action", "ref": 3}):
        page.socket.send_json(question)
        refused = page.receive()
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
        assert refused["ref"] == question["ref"] and "hello" in refused["detail"]
    assert page.hello()["type"] == "state"
    page.socket.send_json({"type": "hint", "ref": 4})
    answer = page.receive()
    assert answer["type"] == "error" and answer["code"] == "no_hint" and answer["ref"] == 4
    page.socket.send_json({"type": "bye", "ref": 5})
    assert page.receive()["code"] == "bad_message"
    page.close()
