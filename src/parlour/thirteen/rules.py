"""The house rules of Thirteen: a frozen object whose defaults are the rules of the spec (CardGames.io)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from parlour.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Rules:
    """The switchable decisions of Thirteen; ``Rules()`` is the game as the spec describes it.

    Attributes:
        three_of_spades_opens: the first play of a game must contain 3♠ (its holder leads).
        quad_beats_pair_of_twos: a four of a kind may also be played on a pair of 2s (off by default:
            only a double sequence of 4 or more pairs beats a pair of 2s).
        double_sequence_beats_quad: a double sequence of 4 or more pairs beats a four of a kind
            (off by default: bombs beat 2s and higher bombs of the same type only).
        bomb_after_pass: a player who passed may still play a bomb (on a 2 or on a bomb) when play comes
            round to them, and lose their lock-out by doing so (off by default: a pass locks out until
            the table is cleared).
        instant_wins: a hand dealt with four 2s or a dragon (a card of every rank from 3 to A) goes out
            at once in first place; the others play on (off by default, as at CardGames.io).
        target_points: points that end the game.
        single_winner: when the leaders tie at or above the target, play on until one leads alone.
        duplicate_deals: 0 for an ordinary match; N > 0 makes the match a duplicate set of N deals,
            each played four times with the hands rotated among the seats (``parlour.thirteen.sets``),
            every round opening as a match's first, the set over after its 4N rounds (the target
            points and ``single_winner`` then play no part).
    """

    three_of_spades_opens: bool = True
    quad_beats_pair_of_twos: bool = False
    double_sequence_beats_quad: bool = False
    bomb_after_pass: bool = False
    instant_wins: bool = False
    target_points: int = 10
    single_winner: bool = True
    duplicate_deals: int = 0

    @property
    def duplicate(self) -> bool:
        """True when the match is a duplicate set."""
        return self.duplicate_deals > 0

    def opens(self, round_number: int) -> bool:
        """Return whether round ``round_number`` (from 1) opens as a match's first round: its leader
        holds 3♠ and, under ``three_of_spades_opens``, its first play must hold 3♠. Only round 1 of an
        ordinary match; every round of a duplicate set, so that a deal plays alike in each rotation."""
        return round_number == 1 or self.duplicate

    def to_json(self) -> dict[str, Any]:
        """Return the rules as a JSON object (every field by name, ``duplicate_deals`` only for a set, so
        that an ordinary match's rules read as they always have): a new dict each time."""
        data = {name: getattr(self, name) for name in _FIELD_NAMES}
        if not self.duplicate_deals:
            del data["duplicate_deals"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """Build rules from ``to_json`` output; missing fields take their defaults.

        Raises:
            InvalidInput: an unknown field or a value of the wrong type.
        """
        known = {field.name: field for field in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise InvalidInput(f"unknown Thirteen rule(s): {', '.join(unknown)}")
        for name, value in data.items():
            expected = int if name in _NUMBERS else bool
            if type(value) is not expected:
                raise InvalidInput(f"rule {name!r} must be {expected.__name__}, got {value!r}")
        if data.get("target_points", 10) < 1:
            raise InvalidInput(f"target_points must be at least 1, got {data['target_points']!r}")
        if not 0 <= data.get("duplicate_deals", 0) <= MAX_DUPLICATE_DEALS:
            raise InvalidInput(
                f"duplicate_deals runs from 0 to {MAX_DUPLICATE_DEALS}, got {data['duplicate_deals']!r}"
            )
        return cls(**data)


MAX_DUPLICATE_DEALS: Final = 26
"""The most deals a duplicate set may hold (104 rounds): a bound on a record, not a table's choice."""
_NUMBERS: Final = frozenset({"target_points", "duplicate_deals"})

STANDARD: Final = Rules()
"""The rules of the spec: CardGames.io's southern Tiến lên."""


_FIELD_NAMES: Final = tuple(field.name for field in fields(Rules))
"""The rules' fields in order (every value is a bool or an int: no deep copy is needed, as asdict makes)."""
