"""What one seat may see of a match: its own hand, the others' card counts, the table, the passes, the
plays of the round, the scores. Views are the only thing that leaves the engine for a seat; bots, the
command line and the server work from views alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.cards import Card
from parlour.thirteen.combos import Combo, Shape
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.moves import plays_now
from parlour.thirteen.order import cards_of
from parlour.thirteen.rules import Rules

if TYPE_CHECKING:
    from parlour.thirteen.game import Match
    from parlour.thirteen.round import Round, Step


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: its ``number``, the seats in finishing ``order``, each seat's ``points`` in it
    and the ``totals`` after it."""

    number: int
    order: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"round": 1, "order": [2, 0, 3, 1], "points": [2, 0, 3, 1], "totals": […]}``."""
        return {
            "round": self.number,
            "order": list(self.order),
            "points": list(self.points),
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a match (immutable; take a new one after each move).

    Attributes:
        seat: the seat this view belongs to (0-3).
        round: the current round's number (from 1). The view holds no match code: the code determines
            every hand, so a view (what the computer players decide from) cannot reveal them.
        rules: the house rules.
        hand_mask: the seat's own cards as a strength mask (``hand`` gives them as cards).
        hand_counts: how many cards each seat holds.
        turn: the seat to move, None when the match is over.
        table_mask / table_shape / table_owner: the combination on the table, who played it (0/None when
            the table is empty).
        passed: for each seat, whether it passed and is locked out until the table is cleared.
        finished: the seats out this round, in finishing order.
        history: the moves of this round so far.
        scores: the points of each seat in the match.
        results: the finished rounds.
        must_include_three_of_spades: the next play (the game's first) must contain 3♠.
        winners: the match winners (empty while it goes on).
    """

    seat: int
    round: int
    rules: Rules
    hand_mask: int
    hand_counts: tuple[int, ...]
    turn: int | None
    table_mask: int
    table_shape: Shape | None
    table_owner: int | None
    passed: tuple[bool, ...]
    finished: tuple[int, ...]
    history: tuple[Step, ...]
    scores: tuple[int, ...]
    results: tuple[RoundResult, ...]
    must_include_three_of_spades: bool
    winners: tuple[int, ...]

    @classmethod
    def of(cls, match: Match, seat: int) -> PlayerView:
        """Return ``seat``'s view of ``match`` (use ``Match.view``)."""
        return cls.of_round(match.round, seat, tuple(match.scores), tuple(match.results), match.winners)

    @classmethod
    def of_round(
        cls,
        current: Round,
        seat: int,
        scores: tuple[int, ...],
        results: tuple[RoundResult, ...],
        winners: tuple[int, ...],
    ) -> PlayerView:
        """Return ``seat``'s view of a round, with the match's ``scores``, ``results`` and ``winners``
        (a search player's sampled rounds have no match of their own)."""
        return cls(
            seat=seat,
            round=current.number,
            rules=current.rules,
            hand_mask=current.hands[seat],
            hand_counts=tuple(hand.bit_count() for hand in current.hands),
            turn=current.turn,
            table_mask=current.table_mask,
            table_shape=current.table_shape,
            table_owner=current.owner,
            passed=tuple(bool(current.passed >> s & 1) for s in range(4)),
            finished=tuple(current.finished),
            history=tuple(current.steps),
            scores=scores,
            results=results,
            must_include_three_of_spades=bool(current.must_include),
            winners=winners,
        )

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's cards, lowest first."""
        return cards_of(self.hand_mask)

    @property
    def table(self) -> tuple[Card, ...]:
        """The cards on the table, lowest first (empty when the table is clear)."""
        return cards_of(self.table_mask)

    @property
    def table_combo(self) -> Combo | None:
        """The classified combination on the table, None when it is empty."""
        return None if self.table_shape is None else Combo.from_shape(self.table_shape)

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.turn == self.seat

    @property
    def may_pass(self) -> bool:
        """True when this seat may pass now: its turn, with a combination on the table to beat."""
        return self.my_turn and self.table_shape is not None

    def legal_plays(self) -> tuple[int, ...]:
        """Return the plays (masks) this seat may make now; empty when it is not its turn."""
        if not self.my_turn:
            return ()
        include = 1 if self.must_include_three_of_spades else 0
        return plays_now(self.hand_mask, self.table_shape, self.rules, include, self.passed[self.seat])

    def legal_moves(self) -> list[Move]:
        """Return every move this seat may make now: the plays, then the pass when allowed."""
        moves = [Move(mask) for mask in self.legal_plays()]
        if self.may_pass:
            moves.append(PASS)
        return moves

    def to_json(self, *, legal_moves: bool = True) -> dict[str, Any]:
        """Return the view as JSON (documented in docs/thirteen.md); it holds no other seat's card.

        ``legal_moves`` False leaves out the legal moves (they can run to hundreds of plays).
        """
        combo = self.table_combo
        data: dict[str, Any] = {
            "seat": self.seat,
            "round": self.round,
            "rules": self.rules.to_json(),
            "hand": [str(card) for card in self.hand],
            "hand_counts": list(self.hand_counts),
            "turn": self.turn,
            "table": {
                "cards": [str(card) for card in self.table],
                "combo": None if combo is None else combo.to_json(),
                "owner": self.table_owner,
            },
            "passed": list(self.passed),
            "finished": list(self.finished),
            "history": [step.to_json() for step in self.history],
            "scores": list(self.scores),
            "results": [result.to_json() for result in self.results],
            "must_include_three_of_spades": self.must_include_three_of_spades,
            "winners": list(self.winners),
        }
        if legal_moves:
            data["legal_moves"] = [str(move) for move in self.legal_moves()]
        return data
