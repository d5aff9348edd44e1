"""Pebbles, a small game of two seats, defined here alone and registered by one entry point line: it
shows that friends' tables (and the rest of the platform) know games only through their definitions.

Each round a pile of 9 to 15 counters is dealt (the size drawn from the match's secret code); the seats
take 1, 2 or 3 counters in turn, the round's first mover alternating; whoever takes the last counter
wins the round and a point; a match is played to its rules' ``target_points``. Each seat also draws a
private *mark* (0-9) per round that only it sees: the tests check that the other seat never does.
A record's moves are the counts taken (``"2"``), in turn order.

Played alone against the computer, Pebbles also has 100 numbered deals (deal N's code is N), whose
records keep the fewest points short of the target, then the fewest takes.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from parlour.errors import GameOver, IllegalMove, InvalidInput, NotYourTurn
from parlour.games.base import (
    Change,
    FinishedGame,
    GameDefinition,
    GameRecord,
    GameStatistics,
    Json,
    NewGame,
    NumberedGames,
    Players,
    RecordSpec,
    Result,
    SeatedGame,
    SeatedMatch,
    StatisticsTable,
    Status,
    TableRules,
    TerminalGame,
)
from parlour.i18n import gettext_for

NAME: Final = "pebbles"
SEATS: Final = 2
STRENGTHS: Final = ("wild", "sharp")
SPEEDS: Final = MappingProxyType({"instant": 0.0, "normal": 0.5})
NUMBERED_DEALS: Final = 100
REASONS: Final = MappingProxyType(
    {
        "bad_take": "Take 1, 2 or 3 pebbles, and no more than the pile holds.",
        "not_your_turn": "It is not your turn.",
        "round_results_pending": "The next round has not started yet.",
        "not_between_rounds": "The round is still being played.",
        "game_over": "The game is over.",
    }
)
"""Pebbles' refusals by reason code, in English (its catalog has every language's)."""


@dataclass(frozen=True)
class PebblesRules:
    """A match to ``target_points`` rounds won."""

    target_points: int = 3
    duplicate_deals: int = 0  # Pebbles has no duplicate sets

    def to_json(self) -> Json:
        return {"target_points": self.target_points}


def pebbles_rules(data: Any) -> PebblesRules:
    """Read Pebbles rules (None: the defaults).

    Raises:
        InvalidInput: not Pebbles rules (``bad_option``).
    """
    if data is None or isinstance(data, PebblesRules):
        return data or PebblesRules()
    if not isinstance(data, dict) or set(data) - {"target_points"}:
        raise InvalidInput(f"not Pebbles rules: {data!r}", code="bad_option")
    target = data.get("target_points", 3)
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 9:
        raise InvalidInput("a game of Pebbles is played to 1-9 points", code="bad_option")
    return PebblesRules(target)


class Pebbles:
    """The rules engine: a match of rounds from a secret code."""

    def __init__(self, code: int, rules: PebblesRules) -> None:
        self.code = code
        self.rules = rules
        self.scores = [0, 0]
        self.moves: list[str] = []
        self.rounds = 0
        self._deal()

    def _deal(self) -> None:
        deal = random.Random(self.code * 1000 + self.rounds)
        self.pile = deal.randint(9, 15)
        self.marks = [deal.randint(0, 9), deal.randint(0, 9)]
        self.turn: int | None = self.rounds % SEATS

    @property
    def over(self) -> bool:
        return max(self.scores) >= self.rules.target_points

    def take(self, seat: int, count: int) -> bool:
        """Take ``count`` counters for ``seat``; return whether the round ended.

        Raises:
            GameOver, NotYourTurn, IllegalMove: the move is refused (nothing changes).
        """
        if self.over:
            raise GameOver("the game is over", code="game_over")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn", code="not_your_turn")
        if not 1 <= count <= min(3, self.pile):
            raise IllegalMove(f"take 1 to {min(3, self.pile)} counters, not {count}", code="bad_take")
        self.pile -= count
        self.moves.append(str(count))
        if self.pile:
            self.turn = 1 - seat
            return False
        self.scores[seat] += 1
        self.rounds += 1
        if self.over:
            self.turn = None
        else:
            self._deal()
        return True

    def view(self, seat: int, between_rounds: bool = False) -> PebblesView:
        return PebblesView(
            seat=seat,
            pile=self.pile,
            turn=self.turn,
            scores=tuple(self.scores),
            round=self.rounds + 1,
            mark=self.marks[seat],
            target_points=self.rules.target_points,
            between_rounds=between_rounds,
        )


@dataclass(frozen=True)
class PebblesView:
    """One seat's view: the pile, whose turn, the scores, and that seat's own mark (None for a
    watcher)."""

    seat: int | None
    pile: int
    turn: int | None
    scores: tuple[int, ...]
    round: int
    mark: int | None
    target_points: int
    between_rounds: bool

    def to_json(self) -> Json:
        return {
            "seat": self.seat,
            "pile": self.pile,
            "turn": self.turn,
            "scores": list(self.scores),
            "round": self.round,
            "mark": self.mark,
            "target_points": self.target_points,
            "between_rounds": self.between_rounds,
        }


def _count(action: Json) -> int:
    count = action.get("count")
    if isinstance(count, bool) or not isinstance(count, int):
        raise InvalidInput(f"a take is a count of counters, not {count!r}", code="bad_action")
    return count


class PebblesMatch(SeatedMatch[PebblesView]):
    """A game of Pebbles in play: people at their seats, computer players at the others (and for the
    away)."""

    kind = NAME

    def __init__(self, pebbles: Pebbles, players: Players, seed: int) -> None:
        self.pebbles = pebbles
        self.people = players.people
        self.absent: set[int] = set()
        self.speed = players.speed
        self.strengths = {seat: players.strengths.get(seat, players.strength) for seat in range(SEATS)}
        self.between_rounds = False
        self.rng = random.Random(seed)

    @property
    def seats(self) -> Sequence[int]:
        return tuple(sorted(self.people))

    @property
    def finished(self) -> bool:
        return self.pebbles.over

    @property
    def turn(self) -> int | None:
        return self.pebbles.turn

    @property
    def turn_key(self) -> tuple[int, ...]:
        return (len(self.pebbles.moves), -1 if self.pebbles.turn is None else self.pebbles.turn)

    @property
    def moves_played(self) -> int:
        return len(self.pebbles.moves)

    def view(self, seat: int) -> PebblesView:
        return self.pebbles.view(seat, self.between_rounds)

    def spectator(self, view: PebblesView) -> PebblesView:
        return replace(view, seat=None, mark=None)

    def act(self, seat: int, action: Json) -> Change:
        if action.get("type") == "continue":  # alone against the computer: the person deals on
            return self.next_round()
        if action.get("type") != "take":
            raise InvalidInput(f"unknown action {action.get('type')!r}", code="bad_action")
        if self.between_rounds:
            raise IllegalMove("the next round has not started yet", code="round_results_pending")
        return self._take(seat, _count(action))

    def _take(self, seat: int, count: int) -> Change:
        ended = self.pebbles.take(seat, count)
        self.between_rounds = ended and not self.pebbles.over
        return Change(
            "take",
            {"seat": seat, "count": count, "round_won": ended},
            moves=(str(count),),
            finished=self.pebbles.over,
        )

    def next_auto(self) -> float | None:
        """Alone against the computer: the pause before its move (a table times its own)."""
        turn = self.pebbles.turn
        if turn is None or self.between_rounds or not self.played_by_computer(turn):
            return None
        return SPEEDS.get(self.speed, 0.0)

    def auto(self) -> Change | None:
        turn = self.pebbles.turn
        if turn is None or self.between_rounds or not self.played_by_computer(turn):
            return None
        return self.play_for(turn)

    def played_by_computer(self, seat: int) -> bool:
        return seat not in self.people or seat in self.absent

    def play_for(self, seat: int) -> Change:
        pile = self.pebbles.pile
        if self.strengths[seat] == "sharp" and pile % 4:
            count = pile % 4
        else:
            count = self.rng.randint(1, min(3, pile))
        return self._take(seat, count)

    def time_out(self, seat: int) -> Change:
        return self._take(seat, 1)

    def next_round(self) -> Change:
        if not self.between_rounds:
            raise IllegalMove("the round is still being played", code="not_between_rounds")
        self.between_rounds = False
        return Change("next_round", {"round": self.pebbles.rounds + 1})


class PebblesReplay:
    """A pebbles's record replayed by the store."""

    def __init__(self, spec: RecordSpec) -> None:
        self.pebbles = Pebbles(int(spec.code), pebbles_rules(spec.rules))
        self.owner = next(
            (n for n, seat in enumerate(spec.seats) if isinstance(seat, dict) and seat.get("owner")), 0
        )
        self.moved: list[int] = []

    @property
    def moves(self) -> int:
        return len(self.pebbles.moves)

    def apply(self, move: str) -> str:
        if not move.isdigit():
            raise InvalidInput(f"not a take: {move!r}", code="bad_action")
        seat = self.pebbles.turn
        if seat is None:
            raise GameOver("the game is over", code="game_over")
        self.pebbles.take(seat, int(move))
        self.moved.append(seat)
        return move

    def result(self, *, ended: bool) -> Result:
        return self.result_for(self.owner, ended=ended)

    def result_for(self, seat: int, *, ended: bool) -> Result:
        status = Status.FINISHED if self.pebbles.over else Status.LEFT
        won = self.pebbles.over and self.pebbles.scores[seat] >= self.pebbles.rules.target_points
        points = self.pebbles.scores[seat]
        data = {
            "status": status,
            "seat": seat,
            "points": points,
            "won": won,
            "short": self.pebbles.rules.target_points - points,
            "takes": sum(1 for mover in self.moved if mover == seat),
        }
        return Result(status, data, played=seat in self.moved)


@dataclass(frozen=True)
class PebblesStatistics:
    played: int = 0
    won: int = 0

    def to_json(self) -> Json:
        return {"played": self.played, "won": self.won}


class PebblesSeated(SeatedGame):
    seats = SEATS
    strengths = STRENGTHS
    default_strength = "sharp"
    speeds = SPEEDS
    default_speed = "normal"
    phrases = MappingProxyType({"last_one": "The last one is mine!"})
    match_actions = frozenset({"take"})

    def rules(self, data: Any) -> TableRules:
        return pebbles_rules(data)

    def deal(
        self, rules: TableRules, players: Players, seats: Sequence[Json]
    ) -> tuple[PebblesMatch, RecordSpec]:
        code = secrets.randbelow(10**9)
        seed = secrets.randbits(62)
        match = PebblesMatch(Pebbles(code, pebbles_rules(rules.to_json())), players, seed)
        spec = DEFINITION.prepare(rules.to_json(), str(code), list(seats), None)
        return match, replace(spec, secret={"seed": seed})

    def restore(self, record: GameRecord, players: Players) -> PebblesMatch:
        pebbles = Pebbles(int(record.code), pebbles_rules(record.rules or None))
        seed = (record.secret or {}).get("seed", 0)
        match = PebblesMatch(pebbles, players, seed if isinstance(seed, int) else 0)
        for move in record.moves:
            seat = pebbles.turn
            if seat is None:
                raise GameOver("the record goes on after the game's end", code="game_over")
            match._take(seat, int(move))
        return match


class PebblesDefinition(GameDefinition):
    """Pebbles: played at friends' tables, or alone against a computer player."""

    name = NAME
    title = "Pebbles"
    blurb = "Take the last pebble."
    page = "/pebbles"
    page_module = "pebbles.site"
    seated = PebblesSeated()
    terminal = TerminalGame(
        key="p", opener="pebbles.terminal:open_pebbles", codes="none", owns_code=lambda text: False
    )
    commands = "pebbles.terminal:pebbles"
    numbered = NumberedGames(
        count=NUMBERED_DEALS,
        rules=MappingProxyType({"standard": "Standard"}),
        verdict=lambda rules, number: None,
        standing_of=lambda data: (int(data["short"]), int(data["takes"])) if "short" in data else None,
        fields=("short", "takes"),
        wins=lambda standing: standing[0] == 0,
        describe=lambda standing, s: s(
            "{short} points short, {takes} takes", short=standing[0], takes=standing[1]
        ),
        explanation="Fewest points short of the target, then fewest takes.",
    )

    def explain(self, code: str, lang: str) -> str | None:
        """Return Pebbles' own refusals in ``lang`` (its catalog), None for a code it does not own."""
        message = REASONS.get(code)
        return None if message is None else gettext_for(lang, NAME, message)

    def new(self, options: Json) -> NewGame:
        """Deal a match alone against the sharp computer player: numbered deal ``number`` (its code is
        its number) or a random one."""
        players = Players(frozenset({0}), {1: "sharp"}, "sharp", "instant")
        seats: list[Json] = [{"kind": "human", "owner": True}, {"kind": "bot"}]
        number = options.get("number")
        if number is None:
            match, spec = self.seated.deal(PebblesRules(), players, seats)
            return NewGame(match, spec)
        spec = self.prepare(None, str(number), seats, number)
        seed = secrets.randbits(62)
        match = PebblesMatch(Pebbles(int(spec.code), PebblesRules()), players, seed)
        return NewGame(match, replace(spec, secret={"seed": seed}))

    def restore(self, record: GameRecord) -> PebblesMatch:
        players = Players(frozenset({0}), {1: "sharp"}, "sharp", "instant")
        return self.seated.restore(record, players)

    def prepare(self, rules: Any, code: str, seats: Sequence[Any], numbered: int | None) -> RecordSpec:
        if not code.isdigit() or len(seats) != SEATS:
            raise InvalidInput(f"not a game of Pebbles: code {code!r}, {len(seats)} seats")
        if numbered is not None and not (
            isinstance(numbered, int) and 1 <= numbered <= NUMBERED_DEALS and code == str(numbered)
        ):
            raise InvalidInput(f"Pebbles' numbered deals are 1 to {NUMBERED_DEALS}, not {numbered!r}")
        rules_json = pebbles_rules(rules or None).to_json()
        return RecordSpec(rules_json, "standard", code, list(seats), numbered)

    def replay(self, spec: RecordSpec) -> PebblesReplay:
        return PebblesReplay(spec)

    def fold(self, games: Sequence[FinishedGame]) -> PebblesStatistics:
        return PebblesStatistics(len(games), sum(bool(game.result.get("won")) for game in games))

    def statistics_tables(self, figures: GameStatistics, player: str) -> list[StatisticsTable]:
        assert isinstance(figures, PebblesStatistics)
        row = (str(figures.played), str(figures.won))
        return [StatisticsTable(f"Pebbles — {player}", ("Played", "Won"), (row,), labelled=False)]

    def statistics_summary(self, figures: GameStatistics) -> list[tuple[str, str]]:
        assert isinstance(figures, PebblesStatistics)
        return [("Pebbless", str(figures.played))]


DEFINITION = PebblesDefinition()
