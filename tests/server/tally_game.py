"""A tiny two-seat game for testing the game-agnostic live machinery: seats add to a shared tally.

Seat 0 may also ``peek``: a private event only seat 0 sees (seat 1 gets a version stub). The tally ends
at 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.errors import IllegalMove, InvalidInput
from parlour.server.kinds import GameKind, GameRecord, NewGame
from parlour.server.live import Change, Json, LiveGame


class Tally(LiveGame):
    kind = "tally"

    def __init__(self, moves: Sequence[str] = ()) -> None:
        self.total = 0
        self.secret = 0
        for move in moves:
            self.act(0, {"add": int(move)})

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1)

    def view(self, seat: int) -> Json:
        view: Json = {"total": self.total}
        if seat == 0:
            view["secret"] = self.secret
        return view

    def act(self, seat: int, action: Json) -> Change:
        if action.get("peek"):
            self.secret += 1
            return Change("peek", public={"secret": self.secret}, visible_to=frozenset({0}))
        amount = action.get("add")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidInput(f"not an amount: {amount!r}")
        if not 1 <= amount <= 3:
            raise IllegalMove(f"{amount} is not 1, 2 or 3", code="too_much")
        self.total += amount
        return Change("add", public={"amount": amount}, moves=[str(amount)], finished=self.total >= 10)

    @property
    def finished(self) -> bool:
        return self.total >= 10


def _new(options: Json) -> NewGame:
    if options.get("start") not in (None, 0):
        raise InvalidInput("a tally starts at 0")
    return NewGame(Tally(), rules={}, code="tally", seats=[0, 1])


def _restore(record: GameRecord) -> LiveGame:
    return Tally(record.moves)


def _explain(code: str, lang: str) -> str | None:
    return {"too_much": "Add 1, 2 or 3."}.get(code) if lang == "en" else None


KIND: Any = GameKind("tally", "/tally", _new, _restore, _explain)
