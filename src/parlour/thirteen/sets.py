"""Duplicate sets: a match of N deals, each played four times with the hands rotated among the seats.

A match whose rules have ``duplicate_deals = N`` is a set of ``4 N`` rounds. Round k (from 1) plays
deal ``(k - 1) mod N`` (from 0) in rotation ``(k - 1) div N``: every deal once, then every deal again
with the hands moved on. Deal d is dealt as round ``d + 1`` of an ordinary match of the same code, so
the match's commitment covers every deal. In rotation r seat s holds hand ``(s + r) mod 4`` of the deal
(hand h being the thirteen cards an ordinary deal gives seat h): over the four rotations every seat
plays every hand once, against the same three other hands. See decision 0051.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from parlour.thirteen.codes import round_deal_number
from parlour.thirteen.rules import Rules
from parlour.thirteen.views import RoundResult

SEATS: Final = 4
HAND_NAMES: Final = "ABCD"
"""The hands of a deal as people name them: hand 0 is A."""


@dataclass(frozen=True, slots=True)
class Slot:
    """Where round ``number`` of a set falls: its ``deal`` and ``rotation`` (both from 0)."""

    number: int
    deal: int
    rotation: int

    def hand_of(self, seat: int) -> int:
        """Return the hand (0-3) ``seat`` holds in this round."""
        return (seat + self.rotation) % SEATS

    def seat_of(self, hand: int) -> int:
        """Return the seat that holds ``hand`` (0-3) in this round."""
        return (hand - self.rotation) % SEATS


def slot(rules: Rules, round_number: int) -> Slot:
    """Return the deal and rotation of round ``round_number`` (from 1) of a set under ``rules``.

    Raises:
        ValueError: the rules are not a duplicate set's, or the round is outside 1 .. 4N.
    """
    deals = rules.duplicate_deals
    if deals < 1:
        raise ValueError("an ordinary match has no duplicate slots")
    if not 1 <= round_number <= rounds_of(rules):
        raise ValueError(f"a set of {deals} deals has rounds 1 to {rounds_of(rules)}, not {round_number}")
    index = round_number - 1
    return Slot(round_number, index % deals, index // deals)


def rounds_of(rules: Rules) -> int:
    """Return how many rounds a set under ``rules`` has (0 for an ordinary match)."""
    return SEATS * rules.duplicate_deals


def deal_number(match_number: int, deal: int) -> int:
    """Return the deal number of deal ``deal`` (from 0) of the set dealt from ``match_number``: the deal
    of round ``deal + 1`` of an ordinary match of the same code."""
    return round_deal_number(match_number, deal + 1)


def rotated(hands: Sequence[int], rotation: int) -> list[int]:
    """Return the seats' hands in ``rotation``: seat s gets ``hands[(s + rotation) mod 4]``."""
    return [hands[(seat + rotation) % SEATS] for seat in range(SEATS)]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand of one deal: the points each seat scored with it (None where the seat has not played
    it yet) and ``versus``: each seat's points less the mean of the seats that have played it (None
    until it is played by all four, when the comparison is complete)."""

    deal: int
    hand: int
    points: tuple[int | None, ...]
    versus: tuple[float | None, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"deal": 1, "hand": "A", "points": [2, None, …], "versus": [0.5, …]}`` (deal from 1)."""
        return {
            "deal": self.deal + 1,
            "hand": HAND_NAMES[self.hand],
            "points": list(self.points),
            "versus": [None if value is None else round(value, 2) for value in self.versus],
        }


def comparison(rules: Rules, results: Sequence[RoundResult]) -> list[HandResult]:
    """Return, for every deal and hand of the set, how each seat did with that hand, from the rounds
    finished so far (``results``, in order); deal by deal, hand A to D. Empty for an ordinary match."""
    deals = rules.duplicate_deals
    table: list[list[list[int | None]]] = [[[None] * SEATS for _ in range(SEATS)] for _ in range(deals)]
    for result in results:
        where = slot(rules, result.number)
        for seat in range(SEATS):
            table[where.deal][where.hand_of(seat)][seat] = result.points[seat]
    made = []
    for deal in range(deals):
        for hand in range(SEATS):
            points = tuple(table[deal][hand])
            if all(value is not None for value in points):
                mean = sum(value for value in points if value is not None) / SEATS
                versus: tuple[float | None, ...] = tuple(
                    None if value is None else value - mean for value in points
                )
            else:
                versus = (None,) * SEATS
            made.append(HandResult(deal, hand, points, versus))
    return made


def schedule(rules: Rules, round_number: int) -> dict[str, Any] | None:
    """Return what a page shows of a set in round ``round_number``: ``{"deals", "rounds", "deal",
    "rotation" (both from 1), "hands": the hand each seat holds, "A" …}``; None for an ordinary match
    or a round past the set."""
    if not rules.duplicate or not 1 <= round_number <= rounds_of(rules):
        return None
    where = slot(rules, round_number)
    return {
        "deals": rules.duplicate_deals,
        "rounds": rounds_of(rules),
        "deal": where.deal + 1,
        "rotation": where.rotation + 1,
        "hands": [HAND_NAMES[where.hand_of(seat)] for seat in range(SEATS)],
    }
