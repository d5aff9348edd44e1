"""TriPeaks rules as data: the King–Ace choice and the variants, all off in the app's defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Final

from parlour.errors import InvalidInput

VARIANTS: Final = ("open_peaks", "empty_discard", "joker", "draw_only_when_stuck", "traditional_scoring")
"""The names of the variant switches, in the order they are documented."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule set. ``king_ace_linked`` is True for Easy (K and A adjacent), False for Classic.

    The variants (all False by default): ``open_peaks`` (every peak card face up from the start),
    ``empty_discard`` (the discard pile starts empty and the stock holds one more card), ``joker`` (a
    53rd card that fits every rank), ``draw_only_when_stuck`` (drawing is refused while a card fits) and
    ``traditional_scoring`` (runs of removals, -5 per draw, 15/15/30 for the peaks).
    """

    king_ace_linked: bool = True
    open_peaks: bool = False
    empty_discard: bool = False
    joker: bool = False
    draw_only_when_stuck: bool = False
    traditional_scoring: bool = False

    @property
    def name(self) -> str:
        """``easy`` or ``classic``."""
        return "easy" if self.king_ace_linked else "classic"

    @property
    def variants(self) -> tuple[str, ...]:
        """The names of the variants switched on, in the order of ``VARIANTS``."""
        return tuple(name for name in VARIANTS if getattr(self, name))

    def with_variants(self, *names: str) -> Rules:
        """Return these rules with the named variants switched on.

        Raises:
            InvalidInput: a name is not a variant.
        """
        for name in names:
            if name not in VARIANTS:
                raise InvalidInput(f"unknown variant {name!r}: choose from {', '.join(VARIANTS)}")
        return replace(self, **dict.fromkeys(names, True))

    @classmethod
    def named(cls, name: str) -> Rules:
        """Return ``EASY`` or ``CLASSIC`` for ``easy`` / ``classic`` (any case).

        Raises:
            InvalidInput: the name is neither.
        """
        key = name.strip().lower()
        if key == "easy":
            return EASY
        if key == "classic":
            return CLASSIC
        raise InvalidInput(f"unknown rules {name!r}: choose easy or classic")

    def as_dict(self) -> dict[str, bool]:
        """Every switch by name, for JSON."""
        return {field.name: bool(getattr(self, field.name)) for field in fields(self)}


EASY: Final = Rules(king_ace_linked=True)
"""The app's default: King and Ace linked."""
CLASSIC: Final = Rules(king_ace_linked=False)
"""King and Ace separate: only a Q on a K, only a 2 on an A."""
