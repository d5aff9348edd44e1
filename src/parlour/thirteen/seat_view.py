"""What a person at a Thirteen match sees, as data: :class:`ThirteenSeatView`, one per seat, over one
:class:`ThirteenBoard` shared by every seat's view of the same moment.

The board holds what every seat and every watcher may see (the table, the passes, the scores, the
tricks, the fairness commitment); a seat's view adds only that seat's hand and whether it may play or
pass now. The views become JSON at the wire (``to_json``, documented in ``docs/thirteen.md``); the
board's part of it is made once for all the seats of one moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

from parlour.cards import Card
from parlour.games.base import Json
from parlour.thirteen.combos import is_bomb
from parlour.thirteen.fairness import SCHEME
from parlour.thirteen.order import TWO, cards_of, text_of
from parlour.thirteen.round import Step
from parlour.thirteen.sets import comparison, schedule
from parlour.thirteen.views import PlayerView

_is_bomb = lru_cache(maxsize=4096)(is_bomb)
"""``is_bomb``, kept for the plays most recently asked about (every event looks at the round's history)."""

TWOS: Final = 0b1111 << (4 * TWO)
"""The mask of the four 2s (the highest nibble: a rank's four cards are one nibble)."""

NO_SEAT: Final = -1
"""The seat of the board's engine view: nobody's (it holds no hand)."""
PRIVATE_KEYS: Final = ("seat", "hand", "can_pass", "my_turn")
"""The keys of a view that belong to its seat alone (the rest is the board's)."""


def named_combo(combo: Json | None) -> Json | None:
    """Return an engine's combination (``{"kind", "length", "top"}``) with ``n``, the number its name
    counts (pairs, for a double sequence; cards otherwise), so that no page works it out."""
    if combo is None:
        return None
    length = int(combo["length"])
    return {**combo, "n": length // 2 if combo["kind"] == "double_sequence" else length}


@dataclass(frozen=True)
class TrickStep:
    """One play or pass of a trick, as the pages show it: who, which cards (none for a pass)."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return not self.cards

    def to_json(self) -> Json:
        """Return ``{"seat", "cards", "pass"}``."""
        return {"seat": self.seat, "cards": [str(card) for card in self.cards], "pass": not self.cards}


def _trick(steps: Sequence[Step]) -> tuple[TrickStep, ...]:
    return tuple(TrickStep(step.seat, tuple(cards_of(step.mask))) for step in steps)


def _trick_json(steps: Sequence[Step]) -> list[Json]:
    """Return steps as :meth:`TrickStep.to_json` would, without making the steps (every event)."""
    return [{"seat": step.seat, "cards": text_of(step.mask).split(), "pass": not step.mask} for step in steps]


def tricks_json(steps: Sequence[Step]) -> list[list[Json]]:
    """Return a round's steps as its tricks, in order (each ends where the table was cleared; the last
    may still be on the table): an ended round's history as the results show it, and the terminal's.
    A page in play splits the view's ``history`` itself (``tricksOf`` in thirteen.js), which every
    frame carries already."""
    tricks: list[list[Json]] = []
    start = 0
    for index, step in enumerate(steps):
        if step.cleared:
            tricks.append(_trick_json(steps[start : index + 1]))
            start = index + 1
    if start < len(steps):
        tricks.append(_trick_json(steps[start:]))
    return tricks


@dataclass(frozen=True)
class Fairness:
    """The match's fairness commitment (``SHA-256`` of code and salt), and once the match is over its
    code and salt (a match recorded before commitments has only its code, at the end)."""

    commitment: str | None
    code: str | None = None
    salt: str | None = None
    later: str | None = None
    """``day`` for a daily match that is over before its day is: its code and salt come when the day
    is over (decision 0060)."""

    def to_json(self) -> Json:
        """Return ``{"scheme", "commitment"}`` plus ``code`` and ``salt`` once revealed, or ``later``."""
        data: Json = {"scheme": SCHEME, "commitment": self.commitment}
        if self.code is not None:
            data["code"] = self.code
            data["salt"] = self.salt
        if self.later is not None:
            data["later"] = self.later
        return data


@dataclass(frozen=True)
class ThirteenBoard:
    """What every seat of a match (and every watcher) sees at one moment.

    Attributes:
        public: the engine's view of the match from no seat (:data:`NO_SEAT`, no hand): what every
            seat sees.
        fairness: the commitment, and the code and salt once the match is over.
        last_round: every seat's cards left and the last play of the round just ended (shown with
            the results between rounds and at the end; None before the first round ends).
        between_rounds: a round has ended and the next waits for the people to be ready.
        speed, strength: the computer players' pace and strength.
        played_for: for each seat, in how many rounds a computer player moved for it.
        daily: the match is an attempt at the daily match (the page offers no strength nor new game
            while it is played).
    """

    public: PlayerView
    fairness: Fairness
    last_round: Json | None
    between_rounds: bool
    speed: str
    strength: str
    played_for: tuple[int, ...]
    daily: bool = False
    """A ranked daily match: its computer players and its deal are the day's, not the person's to change."""

    @property
    def turn(self) -> int | None:
        """Return the seat to move (None once the match is over)."""
        return self.public.turn

    @property
    def over(self) -> bool:
        """True once the match has its winners."""
        return bool(self.public.winners)

    def _trick_bounds(self) -> tuple[int, int, int]:
        """Return where the last trick starts, where it ends and the current trick starts (the same
        index for none), in the round's history."""
        ends = [index + 1 for index, step in enumerate(self.public.history) if step.cleared]
        current = ends[-1] if ends else 0
        last = (ends[-2] if len(ends) > 1 else 0) if ends else 0
        return last, current, current

    @property
    def trick(self) -> tuple[TrickStep, ...]:
        """Return the plays and passes since the table was last cleared, in order."""
        return _trick(self.public.history[self._trick_bounds()[2] :])

    @property
    def last_trick(self) -> tuple[TrickStep, ...]:
        """Return the trick before the current one in this round (empty in the round's first trick):
        it was cleared from the table, so every page may look at it again."""
        start, end, _ = self._trick_bounds()
        return _trick(self.public.history[start:end])

    @property
    def twos_gone(self) -> tuple[Card, ...]:
        """Return the 2s played this round (players watch for them)."""
        everything = 0
        for step in self.public.history:
            everything |= step.mask
        return cards_of(everything & TWOS)

    @property
    def bombs_gone(self) -> int:
        """Return how many bombs were played this round."""
        # A bomb has four cards or more: the singles and pairs that make most of a round are not
        # classified again at every event.
        return sum(1 for step in self.public.history if step.mask.bit_count() >= 4 and _is_bomb(step.mask))

    @property
    def duplicate(self) -> Json | None:
        """Return a duplicate set's schedule now (``parlour.thirteen.sets.schedule``: the deal, the
        rotation, the hand each seat holds) with ``comparison``, every deal's hands and how each seat
        did with them so far; None for an ordinary match. It comes from the finished rounds' points,
        which every seat sees already."""
        public = self.public
        made = schedule(public.rules, public.round)
        if made is None:
            return None
        made["comparison"] = [hand.to_json() for hand in comparison(public.rules, public.results)]
        return made

    @cached_property
    def shared_json(self) -> Json:
        """The board's part of every seat's JSON view, made once (never to be changed)."""
        data = self.public.to_json(legal_moves=False)  # no code: it would tell every hand
        for key in PRIVATE_KEYS:
            data.pop(key, None)
        data["table"] = {**data["table"], "combo": named_combo(data["table"]["combo"])}
        data["fairness"] = self.fairness.to_json()
        history = self.public.history
        start, end, current = self._trick_bounds()
        data["trick"] = _trick_json(history[current:])
        data["last_trick"] = _trick_json(history[start:end])
        data["gone"] = {"twos": [str(card) for card in self.twos_gone], "bombs": self.bombs_gone}
        if (self.between_rounds or self.over) and self.last_round is not None:
            data["last_round"] = self.last_round
        data["between_rounds"] = self.between_rounds
        data["settings"] = {"speed": self.speed, "strength": self.strength}
        data["daily"] = self.daily
        data["played_for"] = list(self.played_for)
        duplicate = self.duplicate
        if duplicate is not None:
            data["duplicate"] = duplicate
        return data


@dataclass(frozen=True)
class ThirteenSeatView:
    """One seat's view of a match: the shared board plus that seat's hand and whether it may play or
    pass now (a watcher's has no seat and no hand).

    Attributes:
        board: what every seat sees.
        seat: the seat (None for a watcher).
        hand: the seat's cards, lowest first.
        can_pass: the seat may pass now.
        my_turn: the seat is to move now (not between rounds, not after the match).
    """

    board: ThirteenBoard
    seat: int | None
    hand: tuple[Card, ...]
    can_pass: bool
    my_turn: bool

    def watched(self) -> ThirteenSeatView:
        """Return what a watcher with no seat sees of this moment: no hand, no turn, no pass."""
        return ThirteenSeatView(self.board, None, (), False, False)

    def to_json(self) -> Json:
        """Return the view as ``docs/thirteen.md`` describes it."""
        return {
            **self.board.shared_json,
            "seat": self.seat,
            "hand": [str(card) for card in self.hand],
            "can_pass": self.can_pass,
            "my_turn": self.my_turn,
        }
