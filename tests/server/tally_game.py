"""A tiny third game, defined in this one module and plugged in with one registration: seats add to a
shared tally.

Seat 0 may also ``peek``: a private event only seat 0 sees (seat 1 gets a version stub). The tally ends
at 10. It has everything a game needs — live play, records replayed by the store, statistics, a
page — so the tests can show that the platform knows games only through their definitions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from parlour.errors import IllegalMove, InvalidInput
from parlour.games.base import (
    Change,
    FinishedGame,
    GameDefinition,
    GameRecord,
    GameStatistics,
    Json,
    LiveGame,
    NewGame,
    RecordSpec,
    Result,
    StatisticsTable,
    Status,
)
from parlour.server.pages.requests import current_player, parlour_of

TARGET = 10


def _amount(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"not an amount: {value!r}")
    if not 1 <= value <= 3:
        raise IllegalMove(f"{value} is not 1, 2 or 3", code="too_much")
    return value


@dataclass(frozen=True)
class TallyView:
    total: int
    secret: int | None

    def to_json(self) -> Json:
        view: Json = {"total": self.total}
        if self.secret is not None:
            view["secret"] = self.secret
        return view


class Tally(LiveGame[TallyView]):
    kind = "tally"

    def __init__(self, moves: Sequence[str] = ()) -> None:
        self.total = 0
        self.secret = 0
        for move in moves:
            self.act(0, {"add": int(move)})

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1)

    def view(self, seat: int) -> TallyView:
        return TallyView(self.total, self.secret if seat == 0 else None)

    def legal(self, seat: int) -> list[str]:
        return [] if self.finished else ["1", "2", "3"]

    def act(self, seat: int, action: Json) -> Change:
        if action.get("peek"):
            self.secret += 1
            return Change("peek", public={"secret": self.secret}, visible_to=frozenset({0}))
        amount = _amount(action.get("add"))
        self.total += amount
        return Change("add", public={"amount": amount}, moves=[str(amount)], finished=self.total >= TARGET)

    @property
    def finished(self) -> bool:
        return self.total >= TARGET


class TallyReplay:
    def __init__(self) -> None:
        self.total = 0
        self.moves = 0

    def apply(self, move: str) -> str:
        if self.total >= TARGET:
            raise IllegalMove("the tally is complete", code="game_over")
        amount = _amount(int(move) if move.isdigit() else move)
        self.total += amount
        self.moves += 1
        return str(amount)

    def result(self, *, ended: bool) -> Result:
        status = Status.FINISHED if self.total >= TARGET else Status.LEFT
        return Result(status, {"status": status, "total": self.total, "moves": self.moves})


@dataclass(frozen=True)
class TallyStatistics:
    played: int = 0
    completed: int = 0

    def to_json(self) -> Json:
        return {"played": self.played, "completed": self.completed}


class TallyDefinition(GameDefinition):
    name = "tally"
    title = "Tally"
    blurb = "Add to ten."
    page = "/tally"
    page_module = "tally_game"
    statistics_template = None

    def new(self, options: Json) -> NewGame:
        if options.get("start") not in (None, 0):
            raise InvalidInput("a tally starts at 0")
        return NewGame(Tally(), self.prepare({}, "tally", [0, 1], None))

    def restore(self, record: GameRecord) -> Tally:
        return Tally(record.moves)

    def prepare(self, rules: Any, code: str, seats: Sequence[Any], numbered: int | None) -> RecordSpec:
        if code != "tally" or numbered is not None:
            raise InvalidInput(f"a tally has no deal code {code!r}")
        return RecordSpec({}, "standard", code, list(seats))

    def replay(self, spec: RecordSpec) -> TallyReplay:
        return TallyReplay()

    def fold(self, games: Sequence[FinishedGame]) -> TallyStatistics:
        return TallyStatistics(len(games), sum(game.result["status"] == Status.FINISHED for game in games))

    def statistics_tables(self, figures: GameStatistics, player: str) -> list[StatisticsTable]:
        assert isinstance(figures, TallyStatistics)
        row = (str(figures.played), str(figures.completed))
        return [StatisticsTable(f"Tally — {player}", ("Played", "Completed"), (row,), labelled=False)]

    def statistics_summary(self, figures: GameStatistics) -> list[tuple[str, str]]:
        assert isinstance(figures, TallyStatistics)
        return [("Tallies", str(figures.played))]

    def explain(self, code: str, lang: str) -> str | None:
        return {"too_much": "Add 1, 2 or 3."}.get(code) if lang == "en" else None


DEFINITION = TallyDefinition()

router = APIRouter()


@router.get("/tally", include_in_schema=False)
async def tally_page(request: Request) -> HTMLResponse:
    """The tally's page: the player's open tally (dealing one), its total in plain HTML."""
    parlour = parlour_of(request)
    definition = parlour.games.get(DEFINITION.name)
    player = await current_player(request)
    owner = await parlour.current(definition, player.id)
    if owner is None:
        owner, _ = await parlour.start(definition, player.id, {})
    view = owner.game.view(0)
    return HTMLResponse(f'<main data-game="{owner.game_id}">Tally: <b>{view.to_json()["total"]}</b></main>')
