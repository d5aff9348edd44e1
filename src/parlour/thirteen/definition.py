"""Thirteen as Parlour plays it: the game's one definition (live play, records, texts, statistics).

The live game wraps the engine's ``Match``: one person (seat 0) against three computer players, paced
by a speed setting, and it only ever hands out seat 0's ``PlayerView`` — the other seats' hands never
leave this module. The page sends four actions over the game's WebSocket (see ``docs/protocol.md``):

- ``{"type": "select", "cards": [...]}`` — the cards the person has raised. The engine's selection rule
  decides: a selection that cannot be extended is played at once (event ``play`` with ``auto: true``);
  one that could be extended waits for the Play button; one that can never be played is answered with
  a ``selection`` event saying so. Either way nothing else changes.
- ``{"type": "play", "cards": [...]}`` — the Play button: play exactly these cards (checked).
- ``{"type": "pass"}`` — the Pass button.
- ``{"type": "continue"}`` — after a round's results: deal on (the computer players wait for it).

Each computer player's move is its own event, ``next_auto`` spacing them by the speed setting. Records
hold every seat's moves in turn order (``"5S 5H"`` or ``"pass"``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from parlour.cards import Card
from parlour.copies import shallow_copy
from parlour.errors import GameOver, IllegalMove, InvalidInput, NotYourTurn
from parlour.games.base import (
    Change,
    DailyDeals,
    FinishedGame,
    GameDefinition,
    GameRecord,
    GameStatistics,
    Json,
    NewGame,
    Players,
    Preference,
    RecordSpec,
    Result,
    RulesPage,
    SeatedGame,
    SeatedMatch,
    Standing,
    StatisticsTable,
    Status,
    TableRules,
    TerminalGame,
    daily_reveal,
    now_utc,
)
from parlour.games.ratings import read_computer_ratings
from parlour.i18n import gettext_for
from parlour.thirteen import STANDARD, Match, MatchCode, Move, Rules
from parlour.thirteen.bots import BOTS, make_bot
from parlour.thirteen.bots.search import choose_search_core
from parlour.thirteen.combos import is_bomb
from parlour.thirteen.fairness import commitment, new_salt
from parlour.thirteen.order import cards_of
from parlour.thirteen.puzzle_board import PUZZLES
from parlour.thirteen.review import review_match
from parlour.thirteen.seat_view import (
    NO_SEAT,
    Fairness,
    ThirteenBoard,
    ThirteenSeatView,
    named_combo,
    tricks_json,
)
from parlour.thirteen.select import Selection, judge_view_selection
from parlour.thirteen.views import PlayerView

NAME: Final = "thirteen"
DOMAIN: Final = "thirteen_web"
SEATS: Final = 4
PERSON: Final = 0
BOT_SEATS: Final = (1, 2, 3)
SPEEDS: Final = {"instant": 0.0, "fast": 0.35, "normal": 0.8, "slow": 1.6}
"""Seconds a computer player waits before its move, by the ``bot_speed`` preference."""
STRENGTHS: Final = tuple(BOTS)
"""The computer players' strengths the page offers (the ``bot_strength`` preference), weakest first."""
SPEED_NAMES: Final = {"instant": "Instant", "fast": "Fast", "normal": "Normal", "slow": "Slow"}
STRENGTH_NAMES: Final = {"random": "Beginner", "greedy": "Casual", "strong": "Strong", "expert": "Expert"}
"""The speeds' and strengths' names for people (``thirteen_web`` msgids), as the pages and the terminal
show them."""
REDUCED_EXPERT: Final = "Expert (weaker here: without its compiled search core)"
"""The Expert's name where it plays with the pure-Python search, whose smaller budget plays less well."""
DEFAULT_SPEED: Final = "normal"
DEFAULT_STRENGTH: Final = "strong"
FORMER_STRENGTHS: Final = MappingProxyType({"heuristic": "strong"})
"""The Strong computer player was the heuristic player until issue 28: records written before then
name it so, and are read as the Strong player of today."""


COMBINATION_NAMES: Final = MappingProxyType(
    {
        "single": "a single card",
        "pair": "a pair",
        "triple": "three of a kind",
        "quad": "four of a kind",
        "sequence": "a sequence of {n}",
        "double_sequence": "a double sequence of {n} pairs",
    }
)
"""A combination's name for people by its kind (``thirteen_web`` msgids; ``{n}`` is the view's ``n``)."""


def combination_name(combo: Json, lang: str) -> str:
    """Return the name of a combination (a view's ``{"kind", "n", …}``, or an engine's ``{"kind",
    "length", …}``) in ``lang``: "a pair", "a sequence of 5", "a double sequence of 3 pairs" …"""
    name = COMBINATION_NAMES.get(str(combo.get("kind")), "a single card")
    count = combo["n"] if "n" in combo else (named_combo(combo) or {}).get("n")
    return gettext_for(lang, DOMAIN, name).format(n=count)


def expert_is_reduced() -> bool:
    """True when the Expert plays with the pure-Python search here (no compiled core was built, or
    ``PARLOUR_SOLVER_CORE=python`` asks for the twin): a smaller budget, so a weaker player."""
    return choose_search_core()[0] != "c"


def strength_name(strength: str, lang: str) -> str:
    """Return a computer player's strength as people read it in ``lang``, saying so when the Expert is
    weaker on this server."""
    if strength == "expert" and expert_is_reduced():
        return gettext_for(lang, DOMAIN, REDUCED_EXPERT)
    return gettext_for(lang, DOMAIN, STRENGTH_NAMES[strength])


MAX_CARDS: Final = 13


class ThirteenMatch(SeatedMatch[ThirteenSeatView]):
    """A live match: by default the person at seat 0 and computer players of one strength at seats 1-3.

    A friends' table (``parlour.games.tables``) seats several ``people``; ``strengths`` gives
    each computer player's strength, and a person's seat in ``absent`` is played by a computer player
    of the table's ``strength`` until the person comes back.
    """

    kind = NAME

    def __init__(
        self,
        match: Match,
        strength: str,
        bot_seed: int,
        speed: str = DEFAULT_SPEED,
        salt: str | None = None,
        *,
        people: frozenset[int] = frozenset({PERSON}),
        strengths: Mapping[int, str] | None = None,
        reveal_at: datetime | None = None,
    ) -> None:
        self.match = match
        self.reveal_at = reveal_at
        """When a daily match's code and salt may be shown: the end of its day, not the end of the match
        (decision 0060). None for any other match."""
        self.strength = strength
        self.bot_seed = bot_seed
        self.speed = speed
        # The commitment is published from the first view; the code and the salt only at the end.
        self.salt = salt
        self.commitment = commitment(match.code, salt) if salt is not None else None
        self.people = people
        self.absent: set[int] = set()
        """People's seats a computer player plays for now (the person is away)."""
        self.played_for: dict[int, set[int]] = {}
        """For each person's seat, the rounds (numbered from 0) in which a computer player made a move
        for them: while they were away, or when their time ran out."""
        chosen = dict(strengths or {})
        # Every seat has its computer player, people's seats too (for when the person is away).
        self.bots = {
            seat: make_bot(chosen.get(seat, strength), seed=bot_seed * 4 + seat) for seat in range(SEATS)
        }
        # After a round the next deal waits for the person to have read the results.
        self.between_rounds = _just_dealt_after_a_round(match)
        self.last_round: Json | None = None
        """The end of the round just played: every seat's cards left and the last play (shown with the
        results; the round is over, so they hide nothing still in play)."""

    @property
    def seats(self) -> Sequence[int]:
        """The people's seats (only the person's, at a table against the computer)."""
        return tuple(sorted(self.people))

    def snapshot(self) -> ThirteenMatch:
        """Return an independent copy: the engine's copy of the match, the computer players' copies
        (random generators in the same state) and the seats played for (without a deep copy: the
        owner takes one before every move)."""
        twin = shallow_copy(self)
        twin.match = self.match.copy()
        twin.absent = set(self.absent)
        twin.played_for = {seat: set(rounds) for seat, rounds in self.played_for.items()}
        twin.bots = {seat: bot.copy() for seat, bot in self.bots.items()}
        return twin

    def played_by_computer(self, seat: int) -> bool:
        """Return whether a computer player makes ``seat``'s moves now (a computer seat, or an away
        person's)."""
        return seat not in self.people or seat in self.absent

    @property
    def turn(self) -> int | None:
        """The seat to move (None once the match is over)."""
        return self.match.turn

    @property
    def turn_key(self) -> tuple[int, ...]:
        """Moves made, the seat to move (-1 for none) and rounds played: it changes as the turn moves on."""
        turn = self.match.turn
        return (len(self.match.moves), -1 if turn is None else turn, len(self.match.results))

    @property
    def moves_played(self) -> int:
        """How many moves the match's record holds."""
        return len(self.match.moves)

    def time_out(self, seat: int) -> Change:
        """A person's time ran out: they pass when they may, else their computer player plays for them."""
        if self.match.view(seat).may_pass:
            return self._move(seat, Move.pass_(), auto=False)
        return self.play_for(seat)

    def next_round(self) -> Change:
        """Deal on after a round's results (the engine has the next round dealt already).

        Raises:
            IllegalMove: no round has just ended (``not_between_rounds``).
        """
        if not self.between_rounds:
            raise IllegalMove("the round is still being played", code="not_between_rounds")
        self.between_rounds = False
        return Change("next_round", {"round": self.match.view(PERSON).round})

    def round_orders(self) -> Sequence[tuple[int, ...]]:
        """Every round's finishing order so far (first out first)."""
        return [result.order for result in self.match.results]

    def totals(self) -> tuple[int, ...]:
        """Each seat's points in the match so far."""
        return tuple(self.match.scores)

    def out_this_round(self) -> tuple[int, ...]:
        """The seats already out of the round being played (none between rounds: the next is dealt)."""
        return () if self.between_rounds else tuple(self.match.round.finished)

    def seat_computer(self, seat: int) -> None:
        """Let the computer player of the table's strength play ``seat`` from now on."""
        super().seat_computer(seat)
        self.bots[seat] = make_bot(self.strength, seed=self.bot_seed * 4 + seat)

    def spectator(self, view: ThirteenSeatView) -> ThirteenSeatView:
        """What a watcher sees: a person's view without the hand, the seat, the turn or the right to
        pass."""
        return view.watched()

    @property
    def finished(self) -> bool:
        """True once the match has its winner."""
        return self.match.over

    def view(self, seat: int) -> ThirteenSeatView:
        """Return a person's view: their hand, the others' card counts, the table, passes, scores,
        whether they may pass now, and the computer players' settings.

        Raises:
            InvalidInput: ``seat`` is not a person's (``no_such_seat``): a computer player's view is
                never handed out.
        """
        return self.views((seat,))[seat]

    def views(self, seats: Sequence[int]) -> dict[int, ThirteenSeatView]:
        """Return each person's view of ``seats``, over one board made for all of them.

        Raises:
            InvalidInput: one of ``seats`` is not a person's (``no_such_seat``).
        """
        board: ThirteenBoard | None = None
        made: dict[int, ThirteenSeatView] = {}
        for seat in seats:
            if seat not in self.people:
                raise InvalidInput(f"seat {seat} is not a person's seat", code="no_such_seat")
            if board is None:
                own = self.match.view(seat)
                board = self.board(own)
            else:  # the same moment from another seat: only the seat and its hand differ
                own = replace(board.public, seat=seat, hand_mask=self.match.round.hands[seat])
            made[seat] = ThirteenSeatView(
                board,
                seat,
                tuple(own.hand),
                can_pass=own.may_pass and not self.between_rounds,
                my_turn=own.my_turn and not self.between_rounds and not self.match.over,
            )
        return made

    def board(self, seen: PlayerView) -> ThirteenBoard:
        """Return what every seat sees now, read from ``seen`` (an engine view of one of them, whose
        hand the board does not keep)."""
        return ThirteenBoard(
            public=replace(seen, seat=NO_SEAT, hand_mask=0),
            fairness=self.fairness(),
            last_round=self.last_round,
            between_rounds=self.between_rounds,
            speed=self.speed,
            strength=self.strength,
            played_for=tuple(len(self.played_for.get(n, ())) for n in range(SEATS)),
            daily=self.reveal_at is not None,
        )

    def fairness(self) -> Fairness:
        """Return the match's fairness commitment, and once the match is over its code and salt (for a
        match recorded before commitments, only the code at the end)."""
        if self.match.over and (self.reveal_at is None or now_utc() >= self.reveal_at):
            return Fairness(self.commitment, self.match.code, self.salt)
        return Fairness(self.commitment, later="day" if self.match.over else None)

    def legal(self, seat: int) -> list[str]:
        """Return the person's legal moves now (none between rounds)."""
        if self.between_rounds:
            return []
        return [str(move) for move in self.match.view(seat).legal_moves()]

    def configure(self, seat: int, settings: Json) -> Change | None:
        """Change the computer players' ``speed`` now (a new ``strength`` applies from the next match).

        Raises:
            InvalidInput: an unknown setting or value (``bad_option``).
        """
        check_settings(settings)
        speed = settings.get("speed")
        if speed is None or speed == self.speed:
            return None
        self.speed = speed
        return Change("settings", {"speed": speed})

    def act(self, seat: int, action: Json) -> Change:
        """Apply one of the person's actions (``select``, ``play``, ``pass``, ``continue``).

        Raises:
            InvalidInput: a malformed action (``bad_action``, ``invalid_card`` …).
            IllegalMove: the engine's reason (``not_your_turn``, ``does_not_beat`` …) or
                ``not_between_rounds`` / ``round_results_pending``.
        """
        if seat not in self.people:
            raise InvalidInput(f"seat {seat} is not a person's seat", code="no_such_seat")
        kind = action.get("type")
        if kind == "continue":
            return self.next_round()
        if kind not in ("select", "play", "pass"):
            raise InvalidInput(f"unknown action {kind!r}", code="bad_action")
        if self.between_rounds:
            raise IllegalMove("the next round has not started yet", code="round_results_pending")
        if kind == "pass":
            return self._move(seat, Move.pass_(), auto=False)
        cards = _cards(action.get("cards"))
        if kind == "play":
            return self._move(seat, Move.play(cards), auto=False)
        move = Move.play(cards)
        view = self.match.view(seat)
        if view.turn != seat:
            raise NotYourTurn(f"it is seat {view.turn}'s turn, not seat {seat}'s", code="not_your_turn")
        if move.mask & ~view.hand_mask:
            raise IllegalMove(f"{move.pretty()} is not all in your hand", code="not_in_hand")
        verdict = judge_view_selection(view, move.mask)
        if verdict is Selection.PLAY_NOW:
            return self._move(seat, move, auto=True)
        data: Json = {"cards": [str(card) for card in move.cards], "verdict": str(verdict)}
        if verdict is Selection.NOT_PLAYABLE:
            # Say why (the engine's reason code, changing nothing): "must include 3♠", "does not beat" …
            try:
                self.match.round.check(seat, move.mask)
            except IllegalMove as error:
                data["reason"] = error.code
        # The raised cards are the seat's own business: no other seat and no watcher sees them, or
        # the verdict on them (which says what the seat holds).
        return Change("selection", data, visible_to=frozenset({seat}))

    def next_auto(self) -> float | None:
        """Return the pause before the next computer player's move (None when a person is to move)."""
        turn = self.match.turn
        if turn is None or not self.played_by_computer(turn) or self.between_rounds:
            return None
        return SPEEDS.get(self.speed, SPEEDS[DEFAULT_SPEED])

    def auto(self) -> Change | None:
        """Let the computer player to move choose from its own view, and make that move."""
        turn = self.match.turn
        if turn is None or not self.played_by_computer(turn) or self.between_rounds:
            return None
        return self.play_for(turn)

    def play_for(self, seat: int) -> Change:
        """Make ``seat``'s computer player choose from its own view, and make that move (for a
        computer seat, an away person, or a person whose time ran out)."""
        move = self.bots[seat].choose(self.match.view(seat))
        if seat in self.people:
            self.played_for.setdefault(seat, set()).add(len(self.match.results))
        return self._move(seat, move, auto=False)

    def _move(self, seat: int, move: Move, *, auto: bool) -> Change:
        """Make a checked move and describe it; raises the engine's errors, changing nothing."""
        rounds_before = len(self.match.results)
        table_before = self.match.view(PERSON).table_owner
        hands_before = list(self.match.round.hands)
        ending = self.match.round  # kept whole by the match once it ends: its steps and dealt hands
        self.match.apply(seat, move)
        data: Json = {"seat": seat, "cards": [str(card) for card in move.cards]}
        if move.is_pass:
            name = "pass"
        else:
            name = "play"
            data["auto"] = auto
            data["bomb"] = is_bomb(move.mask)
        after = self.match.view(PERSON)
        data["cleared"] = table_before is not None and after.table_owner is None
        if len(self.match.results) > rounds_before:
            data["round_result"] = self.match.results[-1].to_json()
            hands_before[seat] &= ~move.mask
            self.last_round = {
                "remaining": [[str(card) for card in cards_of(hand)] for hand in hands_before],
                "last_play": {"seat": seat, "cards": [str(card) for card in move.cards]},
                # The round is over: every hand as it was dealt and every trick may be shown.
                "dealt": [[str(card) for card in cards_of(hand)] for hand in ending.dealt],
                "tricks": tricks_json(ending.steps),
            }
            data["last_round"] = self.last_round
            self.between_rounds = not self.match.over
        if self.match.over:
            data["winners"] = list(self.match.winners)
        return Change(name, data, moves=(str(move),), finished=self.match.over)


def _just_dealt_after_a_round(match: Match) -> bool:
    """True when a round has ended and nobody has moved in the next one yet (the results are showing)."""
    view = match.view(PERSON)
    return bool(view.results) and not view.history and not match.over


def _cards(value: Any) -> list[Card]:
    """Read the ``cards`` of an action: a list of 1-13 card texts.

    Raises:
        InvalidInput: not a list of card texts (``bad_action``), or an unreadable card (``invalid_card``).
    """
    if not isinstance(value, list) or not value or len(value) > MAX_CARDS:
        raise InvalidInput("cards must be a list of 1 to 13 cards such as ['5S', '5H']", code="bad_action")
    if not all(isinstance(text, str) for text in value):
        raise InvalidInput("every card must be text such as '5S'", code="bad_action")
    return [Card.parse(text) for text in value]


def check_settings(settings: Json) -> None:
    """Check computer-player settings (``speed``, ``strength``), as a page may send them.

    Raises:
        InvalidInput: empty, an unknown name, or a value not offered (``bad_option``).
    """
    allowed: dict[str, Sequence[str]] = {"speed": tuple(SPEEDS), "strength": STRENGTHS}
    if not settings or any(name not in allowed or settings[name] not in allowed[name] for name in settings):
        raise InvalidInput(
            f"settings {settings!r}: speed {tuple(SPEEDS)}, strength {STRENGTHS}", code="bad_option"
        )


# --- records ----------------------------------------------------------------------------------------------


def thirteen_rules(rules: Any) -> Rules:
    """Return Thirteen rules from the engine's value, a JSON mapping, ``standard`` or None.

    Raises:
        InvalidInput: not Thirteen rules.
    """
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str) and rules.strip().lower() == "standard":
        return Rules()
    if isinstance(rules, dict):
        try:
            return Rules.from_json(dict(rules))
        except (TypeError, ValueError) as error:
            raise InvalidInput(f"not Thirteen rules: {rules!r} ({error})") from error
    raise InvalidInput(f"not Thirteen rules: {rules!r}")


def player_seat(seats: Sequence[Any]) -> int:
    """Return the seat of the player who owns the record: the entry marked ``"owner"`` (a friends'
    table's host, who may sit anywhere), else the first ``"human"`` or ``{"kind": "human", …}`` entry
    (seat 0 when none is marked)."""
    for seat, entry in enumerate(seats):
        if isinstance(entry, dict) and entry.get("owner") is True:
            return seat
    for seat, entry in enumerate(seats):
        if entry == "human" or (isinstance(entry, dict) and entry.get("kind") == "human"):
            return seat
    return 0


class ThirteenReplay:
    """A Thirteen record being replayed by the store: moves in turn order, every seat's."""

    def __init__(self, spec: RecordSpec) -> None:
        self.match = Match.from_code(spec.code, thirteen_rules(spec.rules))
        self.seat = player_seat(spec.seats)
        self._applied = 0
        self._seats_moved: list[int] = []

    @property
    def moves(self) -> int:
        """Return how many stored moves have been applied."""
        return self._applied

    def apply(self, move: str) -> str:
        """Make the next move for the seat whose turn it is and return it in canonical form.

        Raises:
            InvalidInput, IllegalMove: the engine refuses it; GameOver after the end of the match.
        """
        seat = self.match.turn
        if seat is None:
            raise GameOver(f"the match {self.match.code} is over: no move {move!r}")
        self.match.apply(seat, move)
        self._applied += 1
        self._seats_moved.append(seat)
        return str(self.match.moves[-1])

    def result(self, *, ended: bool) -> Result:
        """Return the result for the record owner's seat (see :meth:`result_for`)."""
        return self.result_for(self.seat, ended=ended)

    def result_for(self, seat: int, *, ended: bool) -> Result:
        """Return the result for the person at ``seat``: ``finished`` (match over) or ``left``, the
        rounds completed, ``places`` (how many rounds they finished 1st … 4th), ``points``, ``won`` and
        every seat's ``scores``; ``played`` when a move was made at the seat."""
        match = self.match
        places = [0] * SEATS
        for finished in match.results:
            places[finished.order.index(seat)] += 1
        status = Status.FINISHED if match.over else Status.LEFT
        own_moves = sum(1 for step in self._seats_moved if step == seat)
        data = {
            "status": status,
            "seat": seat,
            "rounds": len(match.results),
            "places": places,
            "points": match.scores[seat],
            "won": seat in match.winners,
            "scores": list(match.scores),
        }
        return Result(status, data, played=own_moves > 0)


# --- statistics ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThirteenStatistics:
    """Thirteen figures: matches and rounds played, rounds finished in each place, points, matches won."""

    games: int = 0
    rounds: int = 0
    places: tuple[int, int, int, int] = (0, 0, 0, 0)
    points: int = 0
    won: int = 0

    @property
    def played(self) -> int:
        """Return how many matches count."""
        return self.games

    def to_json(self) -> Json:
        """Return the figures as JSON."""
        return {
            "games": self.games,
            "rounds": self.rounds,
            "places": list(self.places),
            "points": self.points,
            "won": self.won,
        }


# --- the definition ---------------------------------------------------------------------------------


REASONS: Final = {
    "not_your_turn": "It is not your turn.",
    "does_not_beat": "These cards do not beat the cards on the table.",
    "not_a_combination": "These cards do not form a combination.",
    "must_include_three_of_spades": "The first play of the game must include the 3 of spades.",
    "cannot_pass_on_empty_table": "You cannot pass on an empty table: lead a combination.",
    "locked_out_after_pass": "You passed: you are out until the table is cleared.",
    "not_in_hand": "That card is not in your hand.",
    "already_out": "You have no cards left in this round.",
    "empty_play": "Choose at least one card.",
    "duplicate_card": "A card was named twice.",
    "invalid_card": "That is not a card.",
    "invalid_code": "That is not a Thirteen code (TH1- and 7 letters, or TH2- and 27 characters).",
    "bad_action": "The move is not understood.",
    "bad_option": "That setting is not available.",
    "not_between_rounds": "The round is still being played.",
    "round_results_pending": "The next round has not started yet.",
    "game_over": "The game is over.",
    "not_host": "Only the host can do that.",
    "not_gathering": "The seats are set once the game has started.",
    "seat_taken": "That seat is taken.",
    "already_seated": "You already have a seat at this table.",
    "no_such_seat": "Take a free seat first.",
    "seats_empty": "Every seat needs a player: seat a friend or a computer player.",
    "host_stays": "The host keeps a seat: swap seats to move.",
    "no_bot_there": "There is no computer player in that seat.",
    "not_over": "A rematch follows a finished game.",
    "not_seated": "Only the players at this table can ask for a rematch.",
    "no_match": "No game is being played at this table.",
    "bad_chat": "That message cannot be sent.",
    "no_free_text": "This table takes quick-chat phrases only.",
    "bad_name": "That name cannot be used.",
    "no_player": "Open the table's page to take a seat.",
    "bad_seat_token": "This seat token is no seat's at this table.",
    "no_such_table": "No table has this code.",
    "quick_table": "At a public table the site seats people and deals.",
    "not_quick": "Close the page to leave a friends' table.",
    "rated_needs_agreement": "This table is rated: agree that your rounds count for your rating to sit here.",
    "seated_elsewhere": "You hold a seat at another table: leave it first.",
    "table_full": "No seat is free at this table now.",
    "nothing_to_report": "There is no other person's name at that seat.",
}
"""English texts of the reason codes a Thirteen action can be refused with (msgids of ``thirteen_web``)."""


TABLE_PHRASES: Final = MappingProxyType({"nice_bomb": "Nice bomb!"})
"""Thirteen's own quick-chat phrase at a friends' table (a ``thirteen_web`` msgid)."""
MAX_TARGET: Final = 50
"""The most points a table's match may be played to."""
MAX_TABLE_DEALS: Final = 6
"""The most deals of a duplicate set at a table (24 rounds)."""


COMPUTER_RATINGS: Final = MappingProxyType(
    read_computer_ratings((Path(__file__).parent / "data" / "computer_ratings.json").read_text("utf-8"))
)
"""The computer players' fixed ratings on people's scale, fitted from their own tables by ``parlour
thirteen ratings --save`` (``data/computer_ratings.json``)."""


class ThirteenSeated(SeatedGame):
    """Thirteen at a friends' table: four seats, its house rules (a match to 1-50 points, or a duplicate
    set of 1-6 deals), computer players of four strengths, and matches dealt from a secret code with a
    fairness commitment."""

    seats = SEATS
    strengths = STRENGTHS
    default_strength = DEFAULT_STRENGTH
    former_strengths = FORMER_STRENGTHS
    speeds = MappingProxyType(SPEEDS)
    default_speed = DEFAULT_SPEED
    phrases = TABLE_PHRASES
    match_actions = frozenset({"select", "play", "pass"})
    invitation = "Play Thirteen with friends"
    computer_ratings = COMPUTER_RATINGS
    quick_targets = (10, 5, 20)

    def strength_label(self, strength: str, lang: str) -> str:
        """Return a computer player's strength in ``lang`` (saying so when the Expert is weaker here)."""
        return strength_name(strength, lang)

    def rules(self, data: Any) -> TableRules:
        """Return the house rules of ``data`` (None: the standard rules, a match to 10 points).

        Raises:
            InvalidInput: not Thirteen rules, a target outside 1-50 points, or a duplicate set of more
                than 6 deals (``bad_option``).
        """
        try:
            rules = thirteen_rules(data if isinstance(data, dict) else None)
        except InvalidInput as error:
            raise InvalidInput(str(error), code="bad_option") from error
        if not 1 <= rules.target_points <= MAX_TARGET:
            raise InvalidInput(f"target points run from 1 to {MAX_TARGET}", code="bad_option")
        if rules.duplicate_deals > MAX_TABLE_DEALS:
            raise InvalidInput(f"a duplicate set has 1 to {MAX_TABLE_DEALS} deals", code="bad_option")
        return rules

    def deal(
        self, rules: TableRules, players: Players, seats: Sequence[Json]
    ) -> tuple[ThirteenMatch, RecordSpec]:
        """Deal a match from a fresh secret code, with a fresh fairness salt and computer seed."""
        engine_rules = thirteen_rules(rules)
        match = Match(MatchCode.secret(), engine_rules)
        bot_seed, salt = secrets.randbits(62), new_salt()
        table = self._table(match, bot_seed, salt, players)
        spec = ThirteenDefinition().prepare(engine_rules, match.code, list(seats), None)
        return table, replace(spec, secret={"salt": salt, "bot_seed": bot_seed})

    def restore(self, record: GameRecord, players: Players) -> ThirteenMatch:
        """Rebuild a table's match by replay, with the table's people and computer players.

        Raises:
            ParlourError: the record does not replay.
        """
        base = ThirteenDefinition().restore(record)
        return self._table(base.match, base.bot_seed, base.salt, players)

    @staticmethod
    def _table(match: Match, bot_seed: int, salt: str | None, players: Players) -> ThirteenMatch:
        return ThirteenMatch(
            match,
            players.strength,
            bot_seed,
            players.speed,
            salt,
            people=players.people,
            strengths=players.strengths,
        )


def draw_daily(rules_key: str) -> str:
    """Return a fresh secret match under the standard rules (``rules_key`` ``standard``) as its ``TH2``
    code: a 128-bit seed from the operating system's random source (decision 0059).

    Raises:
        ValueError: another rule set (the daily match is played under the standard rules).
    """
    if rules_key != "standard":
        raise ValueError(f"the daily match is played under the standard rules, not {rules_key!r}")
    return str(MatchCode.secret())


def daily_standing(data: Json) -> Standing | None:
    """Return a daily match's place on the leaderboard, lower being better: the match won first, then
    more points, fewer rounds, less time; None for a match left before the person's first move."""
    if data.get("empty") or "points" not in data:
        return None
    won = 0 if data.get("won") else 1
    return (won, -int(data["points"]), int(data.get("rounds") or 0), int(data.get("seconds") or 0))


def describe_daily(data: Json, s: Callable[..., str]) -> str:
    """Return a daily match's result in words ("Won, 11 points in 7 rounds")."""
    words = s(
        "{points} points in {rounds} rounds", points=data.get("points", 0), rounds=data.get("rounds", 0)
    )
    return f"{s('Won')}, {words}" if data.get("won") else words


DAILY: Final = DailyDeals(
    rules={"standard": "Standard"},
    draw=draw_daily,
    commitment=commitment,
    standing_of=daily_standing,
    describe=describe_daily,
    won=lambda data: bool(data.get("won")),
    order="Ranked by the match won, then points, then fewest rounds, then time.",
)
"""Daily Thirteen: one secret match a day, the same for everybody, against three Expert players."""
DAILY_STRENGTH: Final = "expert"


class ThirteenDefinition(GameDefinition):
    """Thirteen: a person against three computer players, a match to 10 points."""

    name = NAME
    title = "Thirteen"
    order = 20
    blurb = "Be the first to shed your hand against three computer players."
    tile_image = "img/tile-thirteen.svg"
    page = "/thirteen"
    page_module = "parlour.thirteen.site.routes"
    rules = RulesPage("rules_thirteen.html", "Thirteen rules", domain="thirteen_rules")
    statistics_template = "stats_thirteen.html"
    preferences = MappingProxyType(
        {
            "bot_speed": Preference(
                DEFAULT_SPEED,
                ("slow", "normal", "fast", "instant"),
                "Thirteen: computer players' speed",
                MappingProxyType({"slow": "Slow", "normal": "Normal", "fast": "Fast", "instant": "Instant"}),
            ),
            "bot_strength": Preference(
                DEFAULT_STRENGTH,
                STRENGTHS,
                "Thirteen: computer players' strength",
                MappingProxyType(
                    {"random": "Beginner", "greedy": "Casual", "strong": "Strong", "expert": "Expert"}
                ),
            ),
        }
    )
    seated = ThirteenSeated()
    terminal = TerminalGame(
        key="h",
        opener="parlour.thirteen.commands.terminal:run_thirteen",
        codes="TH1-…, TH2-…",
        owns_code=lambda text: text.strip().upper().startswith(("TH1-", "TH2-")),
    )
    commands = "parlour.thirteen.commands.group:thirteen"
    daily = DAILY
    reviews = True
    reviewed = frozenset({Status.FINISHED})
    review_page = "/thirteen/review/{game_id}"
    puzzles = PUZZLES

    def ranked(self, code: str, secret: Json) -> NewGame:
        """Deal the match ``code`` against three Expert players as a ranked match (the daily match):
        its views never name the code before the end (no Thirteen view does), its fairness commitment
        shows from the start, and its record keeps ``secret`` beside the salt and the players' seed.

        Raises:
            InvalidCode: not a Thirteen code.
        """
        match = Match.from_code(code, STANDARD)
        bot_seed, salt = secrets.randbits(62), new_salt()
        table = ThirteenMatch(
            match, DAILY_STRENGTH, bot_seed, DEFAULT_SPEED, salt, reveal_at=daily_reveal(secret)
        )
        seats: list[Any] = [{"kind": "human"}] + [
            {"kind": "bot", "strength": DAILY_STRENGTH} for _ in BOT_SEATS
        ]
        spec = self.prepare(match.rules, match.code, seats, None)
        return NewGame(table, replace(spec, secret={**secret, "salt": salt, "bot_seed": bot_seed}))

    def review(self, record: GameRecord, seat: int = 0) -> Json:
        """Return the review of ``seat``'s decisions in a finished match (``parlour.thirteen.review``,
        seed 0: the same numbers as ``parlour thirteen review CODE MOVE… --seat SEAT``). Only a
        finished match is reviewed: its code and salt are public then, and with them every hand.

        Raises:
            InvalidInput: the record's rules, code or a move cannot be read; ``no_such_seat``.
        """
        made = review_match(record.code, list(record.moves), seat=seat, rules=thirteen_rules(record.rules))
        return made.to_json()

    def new(self, options: Json) -> NewGame:
        """Deal a new match from the page's options: ``code`` (``TH1-…``, optional), ``strength``, ``speed``.

        Raises:
            InvalidInput: an unknown option, strength or speed; InvalidCode: a bad match code.
        """
        unknown = sorted(set(options) - {"code", "strength", "speed"})
        if unknown:
            raise InvalidInput(f"unknown option(s): {', '.join(unknown)}", code="bad_option")
        strength = options.get("strength", DEFAULT_STRENGTH)
        speed = options.get("speed", DEFAULT_SPEED)
        check_settings({"strength": strength, "speed": speed})
        code = options.get("code")
        if code is None or code == "":
            deals = MatchCode.secret()
        elif isinstance(code, str):
            deals = MatchCode.parse(code)
        else:
            raise InvalidInput(f"code {code!r} is not text", code="invalid_code")
        match = Match(deals, STANDARD)
        # The computer players' randomness is the server's secret, not derived from the (secret) code.
        bot_seed, salt = secrets.randbits(62), new_salt()
        table = ThirteenMatch(match, strength, bot_seed, speed, salt)
        seats: list[Any] = [{"kind": "human"}] + [{"kind": "bot", "strength": strength} for _ in BOT_SEATS]
        spec = self.prepare(match.rules, match.code, seats, None)
        return NewGame(table, replace(spec, secret={"salt": salt, "bot_seed": bot_seed}))

    def restore(self, record: GameRecord) -> ThirteenMatch:
        """Rebuild a live match from its record by replaying every stored move with the engine.

        Raises:
            ParlourError: the record does not replay (the server then leaves it closed).
        """
        rules = thirteen_rules(record.rules or None)
        match = Match.replay(record.code, list(record.moves), rules)
        bots = [seat for seat in record.seats if isinstance(seat, dict) and seat.get("kind") == "bot"]
        strength = bots[0].get("strength", DEFAULT_STRENGTH) if bots else DEFAULT_STRENGTH
        strength = FORMER_STRENGTHS.get(strength, strength)
        if strength not in STRENGTHS:
            strength = DEFAULT_STRENGTH
        secret = record.secret or {}
        salt = secret.get("salt")
        bot_seed = secret.get("bot_seed")
        return ThirteenMatch(
            match,
            strength,
            bot_seed if isinstance(bot_seed, int) else secrets.randbits(62),
            salt=salt if isinstance(salt, str) else None,
            reveal_at=daily_reveal(secret),
        )

    def prepare(self, rules: Any, code: str, seats: Sequence[Any], numbered: int | None) -> RecordSpec:
        """Return the normalized record of a new match.

        Raises:
            InvalidInput: rules that are not Thirteen rules, a bad code, not four seats, or a number
                (Thirteen has no numbered games).
        """
        if numbered is not None:
            raise InvalidInput("only TriPeaks has numbered games")
        engine_rules = thirteen_rules(rules)
        if len(seats) != SEATS:
            raise InvalidInput(f"Thirteen has {SEATS} seats, not {len(seats)}: {list(seats)!r}")
        key = "standard" if engine_rules == Rules() else "custom"
        return RecordSpec(engine_rules.to_json(), key, str(MatchCode.parse(code)), list(seats), None)

    def replay(self, spec: RecordSpec) -> ThirteenReplay:
        """Return a replay of the match."""
        return ThirteenReplay(spec)

    def fold(self, games: Sequence[FinishedGame]) -> ThirteenStatistics:
        """Return matches, rounds, places, points and matches won over the finished matches."""
        rounds = points = won = 0
        places = [0, 0, 0, 0]
        for finished in games:
            result = finished.result
            rounds += int(result["rounds"])
            points += int(result["points"])
            won += bool(result["won"])
            for place, count in enumerate(result["places"]):
                places[place] += int(count)
        return ThirteenStatistics(
            len(games), rounds, (places[0], places[1], places[2], places[3]), points, won
        )

    def statistics_tables(self, figures: GameStatistics, player: str) -> list[StatisticsTable]:
        """Return the one-row table of a player's matches."""
        assert isinstance(figures, ThirteenStatistics)
        headings = ("Games", "Won", "Rounds", "1st", "2nd", "3rd", "4th", "Points")
        row = (str(figures.games), str(figures.won), str(figures.rounds), *map(str, figures.places))
        rows = ((*row, str(figures.points)),)
        return [StatisticsTable(f"Thirteen — {player}", headings, rows, labelled=False)]

    def statistics_summary(self, figures: GameStatistics) -> list[tuple[str, str]]:
        """Return Thirteen matches played and won."""
        assert isinstance(figures, ThirteenStatistics)
        return [("Thirteen games", str(figures.games)), ("won", str(figures.won))]

    def explain(self, code: str, lang: str) -> str | None:
        """Return the translated reason for a refused Thirteen action, or None for a code not of this game."""
        message = REASONS.get(code)
        return None if message is None else gettext_for(lang, DOMAIN, message)


DEFINITION: Final = ThirteenDefinition()
"""The game as the platform registers it (the ``parlour.games`` entry point names it)."""
