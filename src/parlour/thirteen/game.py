"""A match of Thirteen: rounds dealt from one code, played until a single player has 10 points or more.

``Match`` is the only mutable game state. Its checked actions ``play(seat, cards)``, ``pass_(seat)`` and
``apply(seat, move)`` validate and raise precise ``IllegalMove`` errors (see ``round``) without changing
anything; ``push(move)`` is the unchecked fast path for bots. ``view(seat)`` is what a seat may see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.cards import Card
from parlour.copies import shallow_copy
from parlour.deal import shuffled_deck
from parlour.errors import GameOver, IllegalMove, InvalidInput
from parlour.thirteen.codes import MatchCode
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.order import mask_of
from parlour.thirteen.round import SEATS, Round
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.sets import rotated, rounds_of, slot
from parlour.thirteen.views import PlayerView, RoundResult


def deal_hands(number: int) -> list[int]:
    """Return the four hands (strength masks) of deal ``number``: cards 0-12 of
    ``shuffled_deck(number)`` to seat 0, 13-25 to seat 1, 26-38 to seat 2, 39-51 to seat 3."""
    return hands_of(shuffled_deck(number))


def hands_of(deck: Sequence[Card]) -> list[int]:
    """Return the four hands (strength masks) a dealt deck gives: cards 0-12 to seat 0, 13-25 to seat 1,
    26-38 to seat 2, 39-51 to seat 3."""
    return [mask_of(deck[13 * seat : 13 * seat + 13]) for seat in range(SEATS)]


@dataclass(frozen=True, slots=True)
class Record:
    """A whole match as data: its code, its rules and every move in order (the seat is implied by the
    turn)."""

    code: str
    rules: Rules
    moves: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"game": "thirteen", "code": …, "rules": {…}, "moves": ["3S 4S 5D", "pass", …]}``."""
        return {
            "game": "thirteen",
            "code": self.code,
            "rules": self.rules.to_json(),
            "moves": list(self.moves),
        }


class Match:
    """A game of Thirteen to ``rules.target_points``, dealt from a code (``TH1-XXXXXXX`` of a number, or a
    secret ``TH2`` seed); under ``rules.duplicate_deals`` a duplicate set of that many deals
    (``parlour.thirteen.sets``)."""

    def __init__(self, number: int | MatchCode = 0, rules: Rules = STANDARD) -> None:
        """Deal round 1 of match ``number`` (a ``TH1`` number, or a :class:`MatchCode` of either kind).

        Raises:
            InvalidCode: the number is outside 0 .. 26^7 - 1.
        """
        self.deals = number if isinstance(number, MatchCode) else MatchCode(number=number)
        self.code = str(self.deals)
        self.rules = rules
        self.scores = [0] * SEATS
        self.results: list[RoundResult] = []
        self.moves: list[Move] = []
        self.winners: tuple[int, ...] = ()
        self.round = Round(1, hands_of(self.deals.round_deck(1)), None, rules, opening=True)

    def copy(self) -> Match:
        """Return an independent copy of the match as it is now (moves and results are immutable)."""
        twin = shallow_copy(self)
        twin.scores = list(self.scores)
        twin.results = list(self.results)
        twin.moves = list(self.moves)
        twin.round = self.round.copy()
        return twin

    @classmethod
    def from_code(cls, code: str, rules: Rules = STANDARD) -> Match:
        """Start the match of a code such as ``TH1-AAAAAAB`` or ``TH2-…``.

        Raises:
            InvalidCode: the text is not a Thirteen code.
        """
        return cls(MatchCode.parse(code), rules)

    @classmethod
    def replay(cls, code: str, moves: Iterable[str | Move], rules: Rules = STANDARD) -> Match:
        """Replay a record, checking every move.

        Raises:
            InvalidCode, InvalidInput, IllegalMove: the code or a move is bad (the message gives its number).
        """
        match = cls.from_code(code, rules)
        for index, move in enumerate(moves):
            seat = match.turn
            if seat is None:
                raise GameOver(f"move {index + 1} ({move}) comes after the end of the match")
            try:
                match.apply(seat, move)
            except (IllegalMove, InvalidInput) as error:
                raise type(error)(f"move {index + 1}: {error}", code=error.code) from error
        return match

    # ---- queries -------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True when the match has its winner."""
        return bool(self.winners)

    @property
    def status(self) -> str:
        """``playing``, or ``finished`` once the match has its winner."""
        return "finished" if self.winners else "playing"

    @property
    def turn(self) -> int | None:
        """The seat to move, None when the match is over."""
        return None if self.winners else self.round.turn

    def legal_moves(self, seat: int) -> list[Move]:
        """Return every move the seat may make now (plays, then the pass when allowed)."""
        if self.winners:
            return []
        moves = [Move(mask) for mask in self.round.legal_plays(seat)]
        if self.round.can_pass(seat):
            moves.append(PASS)
        return moves

    def view(self, seat: int) -> PlayerView:
        """Return what ``seat`` may see: its own hand, never another seat's cards.

        Raises:
            InvalidInput: the seat is not 0-3.
        """
        if not 0 <= seat < SEATS:
            raise InvalidInput(f"there is no seat {seat}: seats are 0 to 3", code="no_such_seat")
        return PlayerView.of(self, seat)

    def record(self) -> Record:
        """Return the match as a record (code, rules, moves)."""
        return Record(self.code, self.rules, tuple(str(move) for move in self.moves))

    # ---- actions -------------------------------------------------------------------------------------

    def play(self, seat: int, cards: Iterable[Card]) -> None:
        """Play these cards for ``seat``.

        Raises:
            InvalidInput: no card or a repeated card.
            IllegalMove: see ``Round.check`` for the reason codes; nothing changes.
        """
        self.apply(seat, Move.play(cards))

    def pass_(self, seat: int) -> None:
        """Pass for ``seat``.

        Raises:
            IllegalMove: ``cannot_pass_on_empty_table``, ``not_your_turn`` …; nothing changes.
        """
        self.apply(seat, PASS)

    def apply(self, seat: int, move: Move | str) -> None:
        """Make a move (a ``Move`` or its text, ``"5S 5H"`` / ``"pass"``) for ``seat``, checked.

        Raises:
            InvalidInput: unreadable text.
            GameOver: the match is over.
            IllegalMove: the rules forbid the move now (reason codes in ``Round.check``).
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if self.winners:
            raise GameOver(f"the match {self.code} is over", code="game_over")
        self.round.check(seat, move.mask)
        self.push(move)

    def push(self, move: Move) -> None:
        """Make a move for the seat to move, unchecked: for bots and search that generate legal moves."""
        self.moves.append(move)
        self.round.push(move.mask)
        if self.round.over:
            self._finish_round()

    def _finish_round(self) -> None:
        finished = self.round
        points = finished.points()
        for seat in range(SEATS):
            self.scores[seat] += points[seat]
        self.results.append(
            RoundResult(finished.number, tuple(finished.finished), points, tuple(self.scores))
        )
        number = finished.number + 1
        if self.rules.duplicate:
            if number > rounds_of(self.rules):
                self.winners = leaders_of(self.scores)
                return
            where = slot(self.rules, number)
            # Deal d of a set is dealt as round d + 1 of an ordinary match of the same code.
            hands = rotated(hands_of(self.deals.round_deck(where.deal + 1)), where.rotation)
            self.round = Round(number, hands, None, self.rules, opening=True)
            return
        self.winners = winners_of(self.scores, self.rules)
        if not self.winners:
            hands = hands_of(self.deals.round_deck(number))
            self.round = Round(number, hands, finished.finished[0], self.rules, opening=False)


def leaders_of(scores: Sequence[int]) -> tuple[int, ...]:
    """Return the seats with the most points (all of them on a tie): a duplicate set's winners."""
    best = max(scores)
    return tuple(seat for seat in range(SEATS) if scores[seat] == best)


def winners_of(scores: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """Return the winners once the best score reaches the target (one seat alone under single_winner)."""
    if max(scores) < rules.target_points:
        return ()
    leaders = leaders_of(scores)
    if len(leaders) > 1 and rules.single_winner:
        return ()
    return leaders
