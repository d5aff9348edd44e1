"""A friends' table whose host leaves before the end: the computer plays for her, the match ends, any
person still seated deals the rematch (a watcher may not), and the host is told at the end that a
computer player played for her, in how many rounds."""

from __future__ import annotations

from parlour.errors import IllegalMove
from parlour.games.tables import OVER, PLAYING, FriendsTable, TableSettings
from parlour.thirteen.definition import ThirteenDefinition, ThirteenMatch

THIRTEEN = ThirteenDefinition()
LOBBY = 4  # the lobby of a Thirteen table: the seat after its four

HOST, FRIEND, WATCHER = 1, 2, 3


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_friend_deals_the_rematch_after_the_host_has_gone() -> None:
    clock = Clock()
    chosen = {"speed": "instant", "grace_seconds": 15, "rules": {"target_points": 3}}
    table = FriendsTable(
        THIRTEEN, "t" * 16, "ABCDEF", HOST, TableSettings.of(THIRTEEN.seated).changed(chosen), clock=clock
    )
    table.act(LOBBY, {"type": "sit", "seat": 0, "_player": HOST, "_token_hash": "h0"})
    table.act(LOBBY, {"type": "sit", "seat": 1, "_player": FRIEND, "_token_hash": "h1"})
    for seat in (2, 3):
        table.act(0, {"type": "add_bot", "seat": seat, "_player": HOST})
    table.act(0, {"type": "start", "_player": HOST})
    # The host's page closes for good: after the grace a computer player takes her seat.
    table.set_connected({1})
    clock.now += 16
    for _ in range(100):  # the computer players' moves due meanwhile, then the take-over
        if table.view(1).to_json()["tables"]["seats"][0]["computer"]:
            break
        table.auto()
    assert table.view(1).to_json()["tables"]["seats"][0]["computer"]
    assert table.match is not None
    table.match.absent.add(1)  # the friend lets a computer player finish for her too, and watches
    for _ in range(5000):
        if table.phase == OVER:
            break
        clock.now += 30
        table.auto()
    assert table.phase == OVER and isinstance(table.match, ThirteenMatch) and table.match.finished
    rounds = len(table.match.match.results)
    assert table.view(0).to_json()["played_for"][0] == rounds  # every round, from its first move
    # A watcher from the lobby may not deal again; the friend, without being host, may.
    try:
        table.act(LOBBY, {"type": "rematch", "_player": WATCHER})
    except IllegalMove as error:
        assert error.code == "not_seated"
    else:
        raise AssertionError("a watcher dealt a rematch")
    try:  # a forged player id at the friend's seat is no friend
        table.act(1, {"type": "rematch", "_player": WATCHER})
    except IllegalMove as error:
        assert error.code == "not_seated"
    else:
        raise AssertionError("someone else dealt a rematch from the friend's seat")
    change = table.act(1, {"type": "rematch", "_player": FRIEND})
    assert change.name == "started" and change.public["rematch"] is True
    assert table.phase == PLAYING and table.view(0).to_json()["played_for"] == [0, 0, 0, 0]  # a new match
