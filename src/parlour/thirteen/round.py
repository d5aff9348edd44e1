"""One round of Thirteen: four hands, the table, passes, and the finishing order.

``Round.push`` applies a move unchecked (for bots and search); ``Round.check`` says precisely why a move
is refused, raising ``IllegalMove`` (or ``NotYourTurn``/``GameOver``) with a reason code:
``already_out``, ``locked_out_after_pass``, ``not_your_turn``, ``cannot_pass_on_empty_table``,
``not_in_hand``, ``not_a_combination``, ``must_include_three_of_spades``, ``does_not_beat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from parlour.errors import GameOver, IllegalMove, NotYourTurn
from parlour.thirteen.combos import KIND_NAMES, Shape, is_bomb, shape_beats, shape_of
from parlour.thirteen.moves import legal_plays, plays_now
from parlour.thirteen.order import THREE_OF_SPADES_BIT, TWO, pretty_of, text_of
from parlour.thirteen.rules import Rules

SEATS: Final = 4
POINTS: Final = (3, 2, 1, 0)
"""Points by finishing place: first out 3, second 2, third 1, last 0."""


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a round: the ``seat``, the cards ``mask`` (0 = pass), whether the seat went ``out``
    with it and whether the table was ``cleared`` after it."""

    seat: int
    mask: int
    out: bool = False
    cleared: bool = False

    def to_json(self) -> dict[str, object]:
        """Return ``{"seat": 0, "move": "5S 5H" | "pass", "out": false, "cleared": false}``."""
        return {
            "seat": self.seat,
            "move": "pass" if self.mask == 0 else text_of(self.mask),
            "out": self.out,
            "cleared": self.cleared,
        }


def is_instant_win(hand: int) -> bool:
    """Return True for a hand holding four 2s or a dragon (one card or more of every rank 3 to A)."""
    if (hand >> (4 * TWO)) & 15 == 15:
        return True
    return all((hand >> (4 * rank)) & 15 for rank in range(TWO))


class Round:
    """The state of one round; seats 0-3 play in increasing order (seat order is turn order)."""

    __slots__ = (
        "dealt",
        "finished",
        "hands",
        "must_include",
        "number",
        "owner",
        "passed",
        "rules",
        "steps",
        "table_mask",
        "table_shape",
        "turn",
    )

    def __init__(
        self, number: int, hands: list[int], leader: int | None, rules: Rules, opening: bool
    ) -> None:
        """Start a round with these hands (strength masks).

        Args:
            number: the round's number in its match, from 1.
            hands: four disjoint masks of 13 cards.
            leader: the seat that leads; None = the holder of 3♠.
            rules: the house rules.
            opening: this is a game's first round, whose first play must contain 3♠ (under the rules).
        """
        self.number = number
        self.rules = rules
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands = list(hands)
        if leader is None:
            leader = next(seat for seat in range(SEATS) if hands[seat] & THREE_OF_SPADES_BIT)
        self.turn: int | None = leader
        self.must_include = THREE_OF_SPADES_BIT if opening and rules.three_of_spades_opens else 0
        self.table_mask = 0
        self.table_shape: Shape | None = None
        self.owner: int | None = None
        self.passed = 0
        self.finished: list[int] = []
        self.steps: list[Step] = []
        if rules.instant_wins:
            self._instant_win(leader)

    def copy(self) -> Round:
        """Return an independent copy of the round as it is now (its steps are immutable, so shared)."""
        twin = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.hands = list(self.hands)
        twin.finished = list(self.finished)
        twin.steps = list(self.steps)
        return twin

    def _instant_win(self, leader: int) -> None:
        """Under the instant-wins house rule, let a hand of four 2s or a dragon (3 to A) go out at once.

        The first such hand in turn order from the leader shows its cards (a history step) and takes
        first place; the others play on, led by the next seat, with no 3♠ requirement.
        """
        for seat in ((leader + k) % SEATS for k in range(SEATS)):
            if is_instant_win(self.hands[seat]):
                self.show_instant_win(seat)
                return

    def show_instant_win(self, seat: int) -> None:
        """Let ``seat`` show its whole hand and go out in first place at once (an instant win: a history
        step of its 13 cards); the next seat leads, with no 3♠ requirement. A search that replays a
        round uses it for that step, which no player chose."""
        hand = self.hands[seat]
        self.hands[seat] = 0
        self.finished.append(seat)
        self.must_include = 0
        self.turn = (seat + 1) % SEATS
        self.steps.append(Step(seat, hand, out=True, cleared=True))

    # ---- queries -------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True when every place is decided."""
        return self.turn is None

    def in_play(self, seat: int) -> bool:
        """True while the seat still holds cards (and the round goes on)."""
        return self.hands[seat] != 0 and seat not in self.finished

    def points(self) -> tuple[int, ...]:
        """Return the points of each seat for this round (all 0 until it is over)."""
        result = [0] * SEATS
        if self.over:
            for place, seat in enumerate(self.finished):
                result[seat] = POINTS[place]
        return tuple(result)

    def legal_plays(self, seat: int) -> tuple[int, ...]:
        """Return the plays (masks) the seat may make now; empty when it is not the seat's turn."""
        if seat != self.turn:
            return ()
        locked = bool(self.passed >> seat & 1)
        return plays_now(self.hands[seat], self.table_shape, self.rules, self.must_include, locked)

    def can_pass(self, seat: int) -> bool:
        """True when the seat may pass now (its turn, and cards on the table)."""
        return seat == self.turn and self.table_shape is not None

    # ---- checked and unchecked moves ----------------------------------------------------------------

    def check(self, seat: int, mask: int) -> None:
        """Raise the precise error that makes this move illegal now (``mask`` 0 = pass); return if legal.

        Raises:
            GameOver: the round is over.
            IllegalMove: with the reason codes of the module docstring.
            NotYourTurn: another seat is to move.
        """
        if self.turn is None:
            raise GameOver("the round is over", code="game_over")
        if not 0 <= seat < SEATS:
            raise IllegalMove(f"there is no seat {seat}: seats are 0 to 3", code="no_such_seat")
        if not self.in_play(seat):
            raise IllegalMove(f"seat {seat} has already gone out this round", code="already_out")
        locked = bool(self.passed >> seat & 1)
        if mask and locked and not self.rules.bomb_after_pass:
            raise IllegalMove(
                f"seat {seat} passed and is locked out until the table is cleared",
                code="locked_out_after_pass",
            )
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s", code="not_your_turn")
        if not mask:
            if self.table_shape is None:
                raise IllegalMove("the table is empty: lead a combination", code="cannot_pass_on_empty_table")
            return
        missing = mask & ~self.hands[seat]
        if missing:
            raise IllegalMove(f"{pretty_of(missing)} not in the hand of seat {seat}", code="not_in_hand")
        shape = shape_of(mask)
        if shape is None:
            raise IllegalMove(f"{pretty_of(mask)} is not a combination", code="not_a_combination")
        if mask & self.must_include != self.must_include:
            raise IllegalMove(
                f"the first play of the game must include 3♠: {pretty_of(mask)} does not",
                code="must_include_three_of_spades",
            )
        if not shape_beats(shape, self.table_shape, self.rules):
            raise IllegalMove(
                f"{pretty_of(mask)} ({KIND_NAMES[shape[0]]}) does not beat {pretty_of(self.table_mask)} "
                f"({KIND_NAMES[self.table_shape[0]] if self.table_shape else 'empty table'})",
                code="does_not_beat",
            )
        if locked and not is_bomb(mask):
            raise IllegalMove(
                f"seat {seat} passed: only a bomb may bring it back before the table is cleared",
                code="locked_out_after_pass",
            )

    def push(self, mask: int) -> None:
        """Apply a move by the seat to move, unchecked (``mask`` 0 = pass); see ``check``."""
        seat = self.turn
        assert seat is not None, "push on a finished round"
        out = False
        if mask:
            self.hands[seat] &= ~mask
            self.table_mask = mask
            self.table_shape = shape_of(mask)
            self.owner = seat
            self.must_include = 0
            self.passed &= ~(1 << seat)
            if not self.hands[seat]:
                out = True
                self.finished.append(seat)
        else:
            self.passed |= 1 << seat
        cleared = self._advance(seat)
        self.steps.append(Step(seat, mask, out, cleared))

    def _advance(self, actor: int) -> bool:
        """Move the turn on after ``actor``; clear the table when nobody can answer. Return True on a
        clear."""
        remaining = [seat for seat in range(SEATS) if self.in_play(seat)]
        if len(remaining) <= 1:
            self.finished.extend(remaining)
            self.turn = None
            return False
        owner = self.owner
        for step in range(1, SEATS + 1):
            seat = (actor + step) % SEATS
            if seat == owner and self.hands[seat]:
                # Play came round to the last player: everybody else passed.
                self._clear(seat)
                return True
            if not self.hands[seat]:
                continue
            if self.passed >> seat & 1 and not self._may_return(seat):
                continue
            self.turn = seat
            return False
        # The last player went out and everybody else passed: the next player after them leads.
        assert owner is not None
        leader = next(seat for seat in ((owner + k) % SEATS for k in range(1, SEATS)) if self.hands[seat])
        self._clear(leader)
        return True

    def _may_return(self, seat: int) -> bool:
        if not self.rules.bomb_after_pass:
            return False
        plays = legal_plays(self.hands[seat], self.table_shape, self.rules, 0)
        return any(is_bomb(mask) for mask in plays)

    def _clear(self, leader: int) -> None:
        self.table_mask = 0
        self.table_shape = None
        self.owner = None
        self.passed = 0
        self.turn = leader
