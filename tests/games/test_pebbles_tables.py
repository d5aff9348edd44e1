"""A game Parlour has never heard of, in one folder (``tests/games/pebbles``) plus one registration line
(an entry point), is played at friends' tables: seats, a computer player, a person away and taken over,
chat with the game's own phrase, results in the records, across two server processes; nothing outside
its folder names it."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.errors import IllegalMove
from parlour.games.tables import OVER, PLAYING, FriendsTable, TableSettings, seated_game

GAMES = Path(__file__).resolve().parent
TESTS = GAMES.parent
ROOT = TESTS.parent
REGISTRATION = "pebbles = pebbles.game:DEFINITION"
"""The one line that registers the game (an entry point of the ``parlour.games`` group)."""

sys.path.insert(0, str(GAMES))
from pebbles.game import DEFINITION  # noqa: E402

HOST, FRIEND = 11, 22


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table_of_two(clock: Clock, **settings: Any) -> FriendsTable:
    game = seated_game(DEFINITION)
    chosen = TableSettings.of(game).changed({"speed": "instant", **settings})
    table = FriendsTable(DEFINITION, "d" * 16, "PEBBAB", HOST, chosen, clock=clock)
    lobby = table.lobby
    table.act(lobby, {"type": "sit", "seat": 0, "_player": HOST, "_token_hash": "h0"})
    table.act(lobby, {"type": "sit", "seat": 1, "_player": FRIEND, "_token_hash": "h1"})
    table.set_connected({0, 1})
    return table


def test_a_pebbles_table_seats_two_plays_a_match_and_keeps_each_mark_to_its_seat() -> None:
    clock = Clock()
    table = table_of_two(clock, rules={"target_points": 2})
    assert table.lobby == 2 and table.kind == "pebbles"
    table.act(0, {"type": "chat", "phrase": "last_one", "_player": HOST})  # the game's own phrase
    with pytest.raises(IllegalMove):
        table.act(1, {"type": "start", "_player": FRIEND})  # only the host deals
    table.act(0, {"type": "start", "_player": HOST})
    assert table.phase == PLAYING and table.pending is not None and table.pending.secret
    for _ in range(200):
        if table.phase == OVER:
            break
        views = {seat: view.to_json() for seat, view in table.views(table.seats).items()}
        for seat in (0, 1):
            view = views[seat]
            other = views[1 - seat]
            assert view["mark"] is not None and view["seat"] == seat
            assert views[table.lobby]["mark"] is None  # a watcher sees no mark
            assert "marks" not in json.dumps(view) and other["seat"] != seat
        if views[0]["between_rounds"]:
            table.act(0, {"type": "continue", "_player": HOST})
            table.act(1, {"type": "continue", "_player": FRIEND})
            continue
        turn = views[0]["turn"]
        table.act(turn, {"type": "take", "count": 1, "_player": (HOST, FRIEND)[turn]})
    assert table.phase == OVER
    assert max(table.view(0).to_json()["scores"]) == 2


def test_a_computer_player_takes_an_empty_seat_and_plays_for_an_away_person() -> None:
    clock = Clock()
    game = seated_game(DEFINITION)
    table = FriendsTable(DEFINITION, "e" * 16, "PEBBCD", HOST, TableSettings.of(game), clock=clock)
    table.act(table.lobby, {"type": "sit", "seat": 0, "_player": HOST, "_token_hash": "h0"})
    table.act(0, {"type": "add_bot", "seat": 1, "strength": "wild", "_player": HOST})
    table.set_connected({0})
    table.act(0, {"type": "start", "_player": HOST})
    assert table.match is not None and table.match.played_by_computer(1)

    clock = Clock()
    table = table_of_two(clock)
    table.act(0, {"type": "start", "_player": HOST})
    table.set_connected({1})  # the host goes away; her friend stays
    clock.now += table.settings.grace_seconds + 1
    changes = []
    for _ in range(2000):
        if table.phase == OVER:
            break
        clock.now += 5
        change = table.auto()
        if change is not None:
            changes.append(change.name)
            continue
        view = table.view(1).to_json()
        if view["between_rounds"]:
            table.act(1, {"type": "continue", "_player": FRIEND})
        elif view["turn"] == 1:
            table.act(1, {"type": "take", "count": 1, "_player": FRIEND})
    assert table.phase == OVER and "taken_over" in changes and "take" in changes
    assert table.view(1).to_json()["tables"]["seats"][0]["computer"]
    table.set_connected({0, 1})  # she is back: the seat is hers again
    assert not table.view(1).to_json()["tables"]["seats"][0]["computer"]


@pytest.fixture
def plugin(tmp_path: Path) -> dict[str, str]:
    """The environment of server processes that have the game registered: a distribution of one
    entry point on their path, and the game's folder."""
    info = tmp_path / "parlour_pebbles-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: parlour-pebbles\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[parlour.games]\n{REGISTRATION}\n")
    path = os.pathsep.join([str(tmp_path), str(GAMES)])
    return {"PYTHONPATH": path}


def helpers() -> Any:
    spec = importlib.util.spec_from_file_location(
        "parlour_test_pebbles_cluster", TESTS / "cluster_processes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.postgres
def test_two_friends_play_a_game_of_pebbles_across_two_server_processes(plugin: dict[str, str]) -> None:
    cluster = helpers()
    with cluster.two_servers(env=plugin) as (first, second), contextlib.ExitStack() as stack:
        host_client, host_cookie = cluster.player_cookie(first)
        friend_client, friend_cookie = cluster.player_cookie(second)
        stack.callback(host_client.close)
        stack.callback(friend_client.close)
        made = host_client.post(
            "/api/tables", json={"game": "pebbles", "name": "Ada", "settings": {"speed": "instant"}}
        )
        assert made.status_code == 201, made.text
        table = made.json()
        assert table["url"] == f"/pebbles/t/{table['code']}"
        listed = host_client.get("/api/tables", params={"game": "pebbles"})
        assert listed.status_code == 200
        both = host_client.get("/api/tables")  # two games are played at tables now: say which
        assert both.status_code == 400 and both.json()["code"] == "bad_option"
        host = cluster.TablePage(stack, first, table["table"], host_cookie, table["seat_token"])
        friend = cluster.TablePage(stack, second, table["table"], friend_cookie)  # relayed to the owner
        sat = friend.act(type="sit", seat=1, name="Bo")
        assert sat["type"] == "ack" and sat["seat"] == 1
        assert friend.act(type="chat", phrase="last_one")["type"] == "ack"
        assert host.act(type="start")["type"] == "ack"
        pages = [host, friend]
        for _ in range(400):
            view = host.view
            if view["tables"]["phase"] == "over":
                break
            if view.get("between_rounds"):
                for page in pages:
                    if (
                        page.view.get("between_rounds")
                        and not page.view["tables"]["seats"][page.view["tables"]["you"]]["ready"]
                    ):
                        page.act(type="continue")
                host.wait(lambda m: m["type"] == "event")
                continue
            mover = pages[view["turn"]]
            reply = mover.act(type="take", count=1)
            assert reply["type"] == "ack", reply
            other = pages[1 - view["turn"]]
            other.wait(lambda m, v=reply["v"]: m.get("v", -1) >= v)
        assert host.view["tables"]["phase"] == "over"
        # Each seat's mark stayed with it: no frame to the friend carries the host's marks.
        marks_seen = {json.loads(text).get("view", {}).get("mark") for text in friend.frames} - {None}
        assert marks_seen and all(
            json.loads(text).get("view", {}).get("seat") in (None, 1) for text in friend.frames
        )
        stats = host_client.get("/api/stats").json()
        assert "pebbles" in json.dumps(stats)
        for server in (first, second):
            assert "Traceback" not in server.log_tail(400), server.log_tail()


def test_nothing_outside_the_games_folder_names_the_game() -> None:
    found = []
    for folder in ("src", "tests", "benchmarks", "scripts"):  # the code (the docs may tell of it)
        for path in (ROOT / folder).rglob("*"):
            if not path.is_file() or GAMES in path.parents or path.suffix in (".pyc", ".so", ".gz"):
                continue
            text = path.read_text(errors="ignore")
            if re.search(r"\bpebbles\b", text, re.IGNORECASE):
                found.append(str(path.relative_to(ROOT)))
    assert found == [], found


def test_the_game_is_in_the_terminal_menu_and_on_the_command_line(plugin: dict[str, str]) -> None:
    import subprocess

    parlour = str(Path(sys.executable).with_name("parlour"))
    env = {**os.environ, **plugin}
    helped = subprocess.run([parlour, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert helped.returncode == 0 and re.search(r"^\s+pebbles\s+Pebbles: take the last", helped.stdout, re.M)
    played = subprocess.run(
        [parlour, "pebbles", "tui", "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    assert played.returncode == 0 and "1-3 take" in played.stdout
    bare = subprocess.run([parlour, "--help"], capture_output=True, text=True, timeout=60)
    assert "pebbles" not in bare.stdout  # without its registration line, Parlour knows nothing of it

    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from textual.widgets import Button

    from parlour.cli.tui import terminal_games
    from parlour.tui.menu import MenuApp

    sys.path.insert(0, plugin["PYTHONPATH"].split(os.pathsep)[0])
    try:
        games = terminal_games()
    finally:
        sys.path.pop(0)
    assert [game.name for game in games][-1] == "pebbles"

    async def choose() -> str | None:
        app = MenuApp("en", games)
        async with app.run_test(size=(80, 24)) as pilot:
            shown = [str(button.label) for button in app.query(Button)]
            assert "Pebbles" in shown
            await pilot.press("p")
        return app.return_value

    # On a loop of its own thread: a browser test of the same worker may have a loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, choose()).result() == "pebbles"
