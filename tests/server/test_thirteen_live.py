"""Thirteen over the WebSocket: every message type, bad input, pacing, records, no hidden card sent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from parlour.games.base import Change
from parlour.store import Store
from parlour.thirteen import Match
from parlour.thirteen.fairness import verify
from socket_messages import until_reply

# Seat 0 holds 3♠ 3♣ 4♣ 5♥ 6♣ 7♠ 7♥ 10♦ Q♣ Q♥ K♥ A♣ 2♦ and leads the match.
CODE = "TH1-AAAAAAC"
CARD = re.compile(r"^(?:[2-9TJQKA][CDHS])(?: [2-9TJQKA][CDHS])*$")


@pytest.fixture
def client(thirteen_client: TestClient) -> TestClient:
    return thirteen_client


def start(client: TestClient, **options: Any) -> str:
    options = {"code": CODE, "speed": "instant", "strength": "greedy"} | options
    response = client.post("/api/games/thirteen", json=options)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game"]
    return game_id


def hello(socket: WebSocketTestSession, version: int | None = None) -> dict[str, Any]:
    socket.send_json({"type": "hello", "v": version})
    message: dict[str, Any] = socket.receive_json()
    return message


def act(socket: WebSocketTestSession, ref: int, **action: Any) -> None:
    socket.send_json({"type": "action", "action": action, "ref": ref})


def until_my_turn(socket: WebSocketTestSession, view: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Receive the computer players' events until seat 0 is to move; return (view, version)."""
    version = -1
    while view["turn"] != 0 or view["between_rounds"]:
        message = socket.receive_json()
        assert message["type"] == "event", message
        assert message["name"] in ("play", "pass") and message["data"]["seat"] != 0
        view, version = message["view"], message["v"]
    return view, version


def test_a_new_match_shows_only_the_persons_hand(client: TestClient) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        state = hello(socket)
    view = state["view"]
    assert state["type"] == "state" and state["v"] == 0
    # The code determines every hand: a match in play shows only its commitment.
    assert "code" not in view and CODE not in json.dumps(state)
    assert re.fullmatch(r"[0-9a-f]{64}", view["fairness"]["commitment"])
    assert set(view["fairness"]) == {"scheme", "commitment"}
    assert view["seat"] == 0 and view["turn"] == 0
    assert view["hand"] == [str(card) for card in Match.from_code(CODE).view(0).hand]
    assert view["hand_counts"] == [13, 13, 13, 13]
    assert view["must_include_three_of_spades"] and not view["can_pass"]
    assert view["settings"] == {"speed": "instant", "strength": "greedy"}
    assert "legal_moves" not in view


def test_a_selection_that_can_grow_waits_and_one_that_cannot_is_played(client: TestClient) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        hello(socket)
        act(socket, 1, type="select", cards=["3S"])
        events, reply = until_reply(socket, 1)
        assert reply == {"type": "ack", "ref": 1, "v": 1}
        assert events[0]["name"] == "selection"
        assert events[0]["data"] == {"cards": ["3S"], "verdict": "wait"}
        assert events[0]["view"]["hand_counts"] == [13, 13, 13, 13]
        act(socket, 2, type="select", cards=["3S", "3C"])
        events, reply = until_reply(socket, 2)
        played = events[0]
        assert played["name"] == "play" and played["v"] == 2
        assert played["data"] == {
            "seat": 0,
            "cards": ["3S", "3C"],
            "auto": True,
            "bomb": False,
            "cleared": False,
        }
        assert played["view"]["table"]["cards"] == ["3S", "3C"] and played["view"]["table"]["owner"] == 0
        assert "3S" not in played["view"]["hand"]


def test_a_selection_that_can_never_be_played_says_so_and_changes_nothing(client: TestClient) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        before = hello(socket)["view"]
        act(socket, 1, type="select", cards=["3S", "QC"])
        events, reply = until_reply(socket, 1)
        assert reply["type"] == "ack"
        assert events[0]["data"] == {
            "cards": ["3S", "QC"],
            "verdict": "not_playable",
            "reason": "not_a_combination",
        }
        assert events[0]["view"] == before


def test_play_and_pass_buttons_and_the_computer_players_answer(client: TestClient, store: Store) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        hello(socket)
        act(socket, 1, type="play", cards=["3S"])
        events, reply = until_reply(socket, 1)
        assert reply["type"] == "ack"
        assert events[0]["name"] == "play" and events[0]["data"]["auto"] is False
        view, _ = until_my_turn(socket, events[-1]["view"])
        moves_before = len(store.game_record(game_id, 1).moves)
        if view["can_pass"]:
            act(socket, 2, type="pass")
            events, reply = until_reply(socket, 2)
            assert reply["type"] == "ack" and events[0]["name"] == "pass"
            passed = events[0]["view"]["passed"][0]
            # The seat that passed is locked out, unless its pass cleared the table (everyone passed).
            assert events[0]["data"]["seat"] == 0 and (passed is True or events[0]["data"]["cleared"] is True)
            record = store.game_record(game_id, 1)
            assert record.moves[moves_before] == "pass"
    record = store.game_record(game_id, 1)
    assert record.moves[0] == "3S"
    assert Match.replay(CODE, record.moves).view(0).hand_counts[0] == 12


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "dance"}, "bad_action"),
        ({}, "bad_action"),
        ({"type": "play"}, "bad_action"),
        ({"type": "play", "cards": "3S"}, "bad_action"),
        ({"type": "play", "cards": []}, "bad_action"),
        ({"type": "play", "cards": [3]}, "bad_action"),
        ({"type": "play", "cards": ["ZZ"]}, "invalid_card"),
        ({"type": "play", "cards": ["JK"]}, "invalid_card"),
        ({"type": "play", "cards": ["3S", "3S"]}, "duplicate_card"),
        ({"type": "play", "cards": ["3S", "4S"]}, "not_in_hand"),
        ({"type": "play", "cards": ["3C"]}, "must_include_three_of_spades"),
        ({"type": "play", "cards": ["3S", "QC"]}, "not_a_combination"),
        ({"type": "select", "cards": ["3S", "4D"]}, "not_in_hand"),
        ({"type": "select", "cards": ["3S"] * 14}, "bad_action"),
        ({"type": "pass"}, "cannot_pass_on_empty_table"),
        ({"type": "continue"}, "not_between_rounds"),
    ],
)
def test_bad_actions_get_the_engines_reason_and_change_nothing(
    client: TestClient, store: Store, action: dict[str, Any], code: str
) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}?lang=hu") as socket:
        before = hello(socket)
        socket.send_json({"type": "action", "action": action, "ref": "x"})
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == code and error["ref"] == "x"
        assert error["v"] == 0 and error["message"] and error["message"] != error["detail"]
        assert hello(socket, None) == before
    assert store.game_record(game_id, 1).moves == []


def test_refusals_are_translated_in_every_language(client: TestClient) -> None:
    game_id = start(client)
    texts = {}
    for lang in ("en", "hi", "hu", "fr", "vi"):
        with client.websocket_connect(f"/ws/{game_id}?lang={lang}") as socket:
            hello(socket)
            act(socket, 1, type="pass")
            texts[lang] = socket.receive_json()["message"]
    assert texts["en"] == "You cannot pass on an empty table: lead a combination."
    assert texts["hi"] == "खाली टेबल पर पास नहीं कर सकते: कोई संयोजन खेलें।"
    assert len(set(texts.values())) == 5


def test_malformed_messages_change_nothing(client: TestClient) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        before = hello(socket)
        for text in ("{not json", json.dumps({"type": "action", "action": "pass"}), "[]", "x" * 5000):
            socket.send_text(text)
            assert socket.receive_json()["type"] == "error"
        assert hello(socket) == before


def test_not_your_turn_while_the_computer_players_move(client: TestClient) -> None:
    game_id = start(client, speed="slow")
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        hello(socket)
        act(socket, 1, type="play", cards=["3S"])
        until_reply(socket, 1)
        for ref, action in enumerate(
            ({"type": "select", "cards": ["4C"]}, {"type": "play", "cards": ["4C"]}), 2
        ):
            act(socket, ref, **action)
            _, reply = until_reply(socket, ref)
            assert reply["code"] == "not_your_turn"


def test_new_game_options_are_checked(client: TestClient) -> None:
    for options, code in (
        ({"strength": "godlike"}, "bad_option"),
        ({"speed": "warp"}, "bad_option"),
        ({"colour": "red"}, "bad_option"),
        ({"code": "TH1-XYZ"}, "invalid_code"),
        ({"code": 12}, "invalid_code"),
    ):
        response = client.post("/api/games/thirteen?lang=fr", json=options)
        assert response.status_code == 400 and response.json()["code"] == code
    assert client.post("/api/games/thirteen", json={}).status_code == 201


def card_texts(value: Any) -> Iterator[str]:
    """Every card named anywhere in a message: alone (``5S``) or in a move text (``5S 5H``)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from card_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_texts(item)
    elif isinstance(value, str) and CARD.match(value):
        yield from value.split()


def test_whole_matches_never_send_another_seats_cards(client: TestClient, store: Store) -> None:
    """Play whole matches over the socket; every card in every message is the person's or already played."""
    page = client.get("/thirteen")
    assert not any(CARD.match(word) for word in re.findall(r"[\w]+", page.text))
    for code in ("TH1-AAAAAAC", "TH1-AAAAAAB", "TH1-PARLOUR"):
        game_id = start(client, code=code, strength="strong")
        known: set[str] = set()  # the person's cards so far and every card played in the open
        ref = 0
        secret = store.game_record(game_id, 1).secret
        assert secret is not None and {"salt", "bot_seed"} <= set(secret)
        # Nothing that lets the seat compute hidden cards, or the computer players' choices, before the end.
        hidden = (code, code.lower(), secret["salt"], str(secret["bot_seed"]))
        with client.websocket_connect(f"/ws/{game_id}") as socket:
            message = hello(socket)
            waiting = False
            while True:
                text = json.dumps(message)
                if not (message.get("view") or {}).get("winners"):
                    assert not any(value in text for value in hidden), f"{code}: {message} reveals a secret"
                if message["type"] in ("state", "event"):
                    view = message["view"]
                    known |= set(view["hand"])
                    known |= {card for step in view["history"] for card in step["move"].split()}
                    known |= set(message.get("data", {}).get("cards", []))
                leaked = set(card_texts(message)) - known
                assert not leaked, f"{code}: {message} shows {leaked}"
                if message["type"] in ("ack", "error"):
                    assert message["type"] == "ack", message
                    waiting = False
                if message["type"] in ("state", "event") and view["winners"]:
                    break
                if not waiting and message["type"] in ("state", "event", "ack"):
                    action = person_policy(view)
                    if action is not None:
                        ref += 1
                        act(socket, ref, **action)
                        waiting = True
                message = socket.receive_json()
        record = store.game_record(game_id, 1)
        assert record.status == "finished"
        fairness = view["fairness"]
        assert fairness["code"] == code and fairness["salt"] == secret["salt"]
        assert verify(fairness["code"], fairness["salt"], fairness["commitment"])
        replayed = Match.replay(code, record.moves)
        assert replayed.over and list(replayed.winners) == view["winners"]
        assert [result.to_json() for result in replayed.results] == view["results"]


def person_policy(view: dict[str, Any]) -> dict[str, Any] | None:
    """A simple player: continue after a round, lead the lowest card, pass on any table."""
    if view["between_rounds"]:
        return {"type": "continue"}
    if view["turn"] != 0:
        return None
    if view["can_pass"]:
        return {"type": "pass"}
    return {"type": "play", "cards": [view["hand"][0]]}


def test_the_view_follows_the_trick_and_a_round_ends_with_every_hand_shown(client: TestClient) -> None:
    game_id = start(client)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        hello(socket)
        act(socket, 1, type="play", cards=["3S"])
        events, _ = until_reply(socket, 1)
        view, _ = until_my_turn(socket, events[-1]["view"])
        trick = view["trick"]
        assert trick[0] == {"seat": 0, "cards": ["3S"], "pass": False}
        assert [step["seat"] for step in trick] == [0, 1, 2, 3][: len(trick)]
        assert set(view["gone"]) == {"twos", "bombs"}
    # A whole round: the event that ends it shows what every seat still held, and the view keeps it
    # while the results are shown.
    table = client.app.state.parlour.live.get(game_id).game  # type: ignore[attr-defined]
    while not table.between_rounds and not table.match.over:
        if table.match.turn == 0:
            seat_view = table.match.view(0)
            change = table._move(0, seat_view.legal_moves()[0], auto=False)
        else:
            change = table.auto()
        assert change is not None
    ended = change.public
    remaining = ended["last_round"]["remaining"]
    assert len(remaining) == 4 and sum(not cards for cards in remaining) >= 1  # the winner is out
    assert table.view(0).to_json()["last_round"] == ended["last_round"]


def test_the_last_round_of_a_match_keeps_every_hand_shown_in_the_view() -> None:
    """The match-end window lists each seat's cards left, as after any other round."""
    from parlour.thirteen import Match
    from parlour.thirteen.definition import ThirteenMatch
    from parlour.thirteen.rules import Rules

    table = ThirteenMatch(Match.from_code("TH1-AAAAAAC", Rules(target_points=1)), "greedy", bot_seed=3)
    change: Change | None = None
    while not table.match.over:
        if table.match.turn == 0 and not table.between_rounds:
            change = table._move(0, table.match.view(0).legal_moves()[0], auto=False)
        else:
            change = table.auto()
        assert change is not None
    assert change is not None and change.public["winners"] and change.public["last_round"]
    assert table.view(0).to_json()["last_round"] == change.public["last_round"]


def test_the_trick_just_cleared_is_kept_in_the_view_as_the_last_trick() -> None:
    """Once the table is cleared, ``last_trick`` holds that trick's every step, the clearing one too,
    until the next clear; the round's first trick has none before it."""
    from parlour.thirteen import Match
    from parlour.thirteen.definition import ThirteenMatch
    from parlour.thirteen.rules import Rules

    table = ThirteenMatch(Match.from_code("TH1-AAAAAAC", Rules(target_points=1)), "greedy", bot_seed=3)
    assert table.view(0).board.last_trick == ()
    clears = 0
    while not table.match.over:
        before = table.view(0).to_json()
        change: Change | None
        if table.match.turn == 0 and not table.between_rounds:
            change = table._move(0, table.match.view(0).legal_moves()[0], auto=False)
        else:
            change = table.auto()
        assert change is not None
        after = table.view(0).to_json()
        if change.public.get("round_result"):
            break
        step = {"seat": change.public["seat"], "cards": change.public["cards"], "pass": change.name == "pass"}
        if change.public.get("cleared"):
            clears += 1
            assert after["last_trick"] == [*before["trick"], step] and after["trick"] == []
        else:
            assert after["last_trick"] == before["last_trick"] and after["trick"] == [*before["trick"], step]
    assert clears >= 2


def test_the_view_says_whose_turn_it_is_so_that_no_page_works_it_out() -> None:
    """``my_turn`` is true exactly when the view's seat is to move now: not between rounds, not after
    the match's end, and never for a watcher."""
    from parlour.thirteen import Match
    from parlour.thirteen.definition import ThirteenMatch
    from parlour.thirteen.rules import Rules

    table = ThirteenMatch(Match.from_code("TH1-AAAAAAC", Rules(target_points=1)), "greedy", bot_seed=3)
    seen = set()
    while True:
        view = table.view(0)
        expected = view.board.turn == 0 and not table.between_rounds and not table.match.over
        assert view.my_turn is expected and view.to_json()["my_turn"] is expected
        assert table.views([0])[0].my_turn is expected
        spectator = table.spectator(view)
        assert spectator.my_turn is False and spectator.to_json()["my_turn"] is False
        assert spectator.hand == () and spectator.to_json()["hand"] == [] and spectator.seat is None
        seen.add(expected)
        if table.match.over:
            break
        if table.between_rounds:
            table.act(0, {"type": "continue"})
        elif table.match.turn == 0:
            table._move(0, table.match.view(0).legal_moves()[0], auto=False)
        else:
            table.auto()
    assert seen == {True, False}


def test_the_combination_on_the_table_isnamed_combo_from_one_place() -> None:
    """The view's combination carries ``n``, the number its name counts (pairs, for a double sequence),
    and its name comes from the one table of names, in each language."""
    from parlour.thirteen.definition import COMBINATION_NAMES, combination_name
    from parlour.thirteen.seat_view import named_combo

    double = named_combo({"kind": "double_sequence", "length": 6, "top": "5H"})
    assert double is not None and double["n"] == 3
    assert combination_name(double, "en") == "a double sequence of 3 pairs"
    run = named_combo({"kind": "sequence", "length": 5, "top": "7S"})
    assert run is not None and combination_name(run, "en") == "a sequence of 5"
    for lang in ("hi", "hu", "fr", "vi"):
        for kind in COMBINATION_NAMES:
            named = named_combo({"kind": kind, "length": 6 if kind.endswith("sequence") else 2, "top": "5H"})
            assert named is not None
            text = combination_name(named, lang)
            assert text and "{n}" not in text and text != COMBINATION_NAMES[kind], (lang, kind)
